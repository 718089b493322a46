import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Only the renderer's component tests: node:test files elsewhere cannot run under vitest.
    include: ['renderer/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['renderer/src/test-setup.ts'],
    // A view test that takes 2 s on a quiet 2-core machine can take three times that beside other work.
    testTimeout: 20_000,
  },
});
