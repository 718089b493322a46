/**
 * A router for the crash test: `startRouter` with a 50 ms persistence debounce (not a CLI flag), on the
 * state dir and config given as arguments, keys from the environment. Prints its URL, logs nothing else,
 * and stops on SIGTERM; the test mostly ends it with SIGKILL.
 */
import { startRouter } from '../router/daemon/start-router.js';

const [stateDir, configPath] = process.argv.slice(2);
if (!stateDir || !configPath) throw new Error('usage: crash-daemon.ts <state-dir> <config.json>');
const router = await startRouter({
  port: 0,
  stateDir,
  configPath,
  persistDebounceMs: 50,
  discoveryTickMs: 0,
});
process.stdout.write(`crash daemon listening on ${router.url}\n`);
process.once('SIGTERM', () => void router.stop({ graceMs: 1000 }));
