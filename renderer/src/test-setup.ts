import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearDrafts } from './lib/drafts.js';

afterEach(() => {
  cleanup();
  // Unsaved edits are kept above the views, for the page's life: each test starts a page of its own.
  clearDrafts();
});
