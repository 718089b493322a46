import type { Page } from '@playwright/test';

/**
 * Collects what a page complains about: uncaught errors and console errors, which include the CSP
 * violations ("Refused to …") a forbidden inline style or script would cause.
 */
export function watchBrowserErrors(page: Page, ignore: RegExp[] = []): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (!ignore.some((pattern) => pattern.test(text))) errors.push(`console: ${text}`);
  });
  return () => errors.slice();
}
