import path from 'node:path';
import { repoRoot } from './daemon.js';

/**
 * Where tests put screenshots: an ignored folder for review, unless `FCM_SCREENSHOTS_DIR` names another
 * (`npm run docs:screenshots` points it at docs/screenshots: the README's pictures are refreshed on
 * purpose, never as a side effect of a test run).
 */
export function screenshotDir(): string {
  const chosen = process.env.FCM_SCREENSHOTS_DIR;
  return chosen ? path.resolve(repoRoot, chosen) : path.join(repoRoot, 'test-results', 'screenshots');
}

/** Where the review screenshots of every view go: an ignored folder, whatever `FCM_SCREENSHOTS_DIR` says. */
export function viewsDir(): string {
  return path.join(repoRoot, 'test-results', 'views');
}
