import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `vite` (dev server) forwards API calls: a daemon running locally. */
const daemon = 'http://127.0.0.1:19280';

// Paths are relative to the repository root, where every npm script runs.
export default defineConfig({
  root: 'renderer',
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // The daemon's CSP allows only same-origin scripts and styles: no inlined assets or scripts.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: { '/api': daemon, '/v1': daemon, '/health': daemon },
  },
});
