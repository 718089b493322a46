import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { failedModuleUrl, retryUrl, viewLoader } from '../lib/view-loader.js';
import { ConnectionContext } from '../live/connection-context.js';
import type { ConnectionStatus } from '../live/event-stream.js';
import { LazyView } from './LazyView.js';

// React reports each error a boundary caught on the console: here they are the point of the test.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const DOWN: ConnectionStatus = {
  state: 'retrying',
  attempt: 1,
  retryAt: 2000,
  downSince: 1000,
  cause: 'unreachable',
};

function TheView() {
  return <p>the view itself</p>;
}

/** A view module whose first load fails as a browser's does when the router does not answer. */
function failingOnce() {
  const load = vi
    .fn<() => Promise<{ TheView: typeof TheView }>>()
    .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
    .mockResolvedValue({ TheView });
  return { load, loader: viewLoader(load, (module) => module.TheView) };
}

function page(loader: ReturnType<typeof viewLoader>, status: ConnectionStatus) {
  return (
    <ConnectionContext value={status}>
      <LazyView loader={loader} what="the view" />
    </ConnectionContext>
  );
}

test('a load that failed in an outage says so quietly, and loads again once the stream opens anew', async () => {
  const { load, loader } = failingOnce();
  const { rerender } = render(page(loader, DOWN));
  expect(
    await screen.findByText('Could not load the view: the router is not reachable (see the banner above).'),
  ).toBeVisible();
  expect(screen.queryByRole('alert')).toBeNull();
  expect(load).toHaveBeenCalledTimes(1);

  rerender(page(loader, { state: 'open', since: 3000 }));
  expect(await screen.findByText('the view itself')).toBeVisible();
  expect(load).toHaveBeenCalledTimes(2);
});

test('a load that failed with the router answering waits for Retry', async () => {
  const { load, loader } = failingOnce();
  const { rerender } = render(page(loader, { state: 'open', since: 500 }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Could not load the view: the page could not fetch its code from the router.',
  );
  // The same open stream re-rendered is no news of the router: no retry by itself.
  rerender(page(loader, { state: 'open', since: 500 }));
  expect(load).toHaveBeenCalledTimes(1);

  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText('the view itself')).toBeVisible();
});

test('a view opened again after its failed load shows the failure, not a blank page', async () => {
  const { loader } = failingOnce();
  const { unmount } = render(page(loader, DOWN));
  await screen.findByRole('button', { name: 'Retry' });
  unmount();
  render(page(loader, DOWN));
  expect(await screen.findByRole('button', { name: 'Retry' })).toBeVisible();
});

test('a retry asks the browser for the failed module under a new address', () => {
  const failure = new TypeError(
    'Failed to fetch dynamically imported module: http://127.0.0.1:19280/assets/SettingsView-CNRJ5_vn.js',
  );
  const url = failedModuleUrl(failure);
  expect(url).toBe('http://127.0.0.1:19280/assets/SettingsView-CNRJ5_vn.js');
  expect(retryUrl(url ?? '', 2)).toBe('http://127.0.0.1:19280/assets/SettingsView-CNRJ5_vn.js?retry=2');
  expect(failedModuleUrl(new TypeError('Importing a module script failed.'))).toBeNull();
});
