/**
 * Loaded with `--import` before the built main process: maps every import of `electron` (the app's and
 * electron-store's) to the recording stand-in, and treats an unhandled rejection as Electron's main process
 * does, with a warning and no exit; `FAKE_ELECTRON_PLATFORM` sets the platform the app sees. Test-only.
 */
import { register } from 'node:module';
import { FAKE_ENV } from './protocol.js';
import { record } from './record.js';

// The app reads `process.platform` for what differs per OS (Windows' session watcher, its tray click).
const platform = process.env[FAKE_ENV.platform];
if (platform) Object.defineProperty(process, 'platform', { value: platform });

// The stand-in's URL goes on down the chain, so tsx's resolver and loader treat it as its own TypeScript.
const HOOK = `
let fake;
export function initialize(data) { fake = data.fake; }
export async function resolve(specifier, context, next) {
  return next(specifier === 'electron' ? fake : specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(HOOK)}`, {
  data: { fake: new URL('./electron.ts', import.meta.url).href },
});

process.on('unhandledRejection', (reason) => {
  record('process', 'unhandledRejection', reason instanceof Error ? reason.message : String(reason));
  process.stderr.write(`(electron) unhandled rejection: ${String(reason)}\n`);
});
