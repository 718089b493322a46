export { startRouter, ConfigError, DEFAULT_PORT } from './start-router.js';
export type { RouterHandle, RouterLogger, StartRouterOptions, RouterEventListener } from './public-types.js';
export type * from './api-types.js';
export { MASKED_SECRET } from './api-types.js';
export { resolveStateDir, defaultStateDir } from './config/state-dir.js';
export { readDaemonFile, daemonFilePath } from './daemon-file.js';
export type { DaemonFile } from './daemon-file.js';
export { DaemonRunningError, StateDirError } from './daemon-lock.js';
export type { LockHolder } from './daemon-lock.js';
