import { expect, test, type Page } from '@playwright/test';

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

/** The HTTP error statuses a page logs when a test provokes them on purpose (the page handles them). */
export const PROVOKED_STATUSES = /the server responded with a status of [45]\d\d/;

/** Registers hooks that watch every test's page and fail the test on what it complained about. */
export function failOnBrowserErrors(ignore: RegExp[] = []): void {
  let errors: () => string[] = () => [];
  test.beforeEach(({ page }) => {
    errors = watchBrowserErrors(page, ignore);
  });
  test.afterEach(() => {
    expect(errors(), 'no page errors').toEqual([]);
  });
}
