import path from 'node:path';
import { repoRoot } from './daemon.js';

/**
 * Where tests put screenshots: an ignored folder for review, unless `FCM_SCREENSHOT_DIR` names another
 * (the README's screenshots are refreshed on purpose, never as a side effect of a test run).
 */
export function screenshotDir(): string {
  return process.env.FCM_SCREENSHOT_DIR ?? path.join(repoRoot, 'test-results', 'screenshots');
}
