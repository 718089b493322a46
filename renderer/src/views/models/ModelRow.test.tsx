import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import type { ModelStateView } from '../../../../router/api-types.js';
import { queryKeys } from '../../api/queries.js';
import { EMPTY_STATS, modelView } from '../../test-support/fixtures.js';
import { ModelRow, type RowEditing } from './ModelRow.js';

const editing: RowEditing = {
  canMoveUp: false,
  canMoveDown: false,
  move: () => undefined,
  remove: () => undefined,
  handle: { 'data-handle-for': 'a/x', onPointerDown: () => undefined, onKeyDown: () => undefined },
  handleHintId: 'hint',
};

/** One row in a list, with the history its quota line reads already in. */
function rowOf(model: ModelStateView) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.history, { entries: [], stats: EMPTY_STATS });
  return (
    <QueryClientProvider client={client}>
      <ul>
        <ModelRow model={model} priority={1} routeAt={2} dragging={false} editing={editing} />
      </ul>
    </QueryClientProvider>
  );
}

test('a row says why the model is asked last, for each lesson it taught lately, and offers Reset', () => {
  const at = new Date(2026, 11, 3, 10, 42).getTime();
  render(rowOf(modelView('a/x', { refusedServedAt: at, ignoredForcedAt: at })));
  expect(screen.getByText(/^refused a request another model served, at 10:42/)).toHaveClass(
    'model-refused-why',
  );
  expect(screen.getByText(/^ignored a forced tool call another model made, at 10:42/)).toHaveClass(
    'model-ignored-why',
  );
  expect(screen.getByRole('button', { name: 'Reset breaker of a/x' })).toBeEnabled();
});

test('a row of a model that only ignored a forced tool call shows that line alone, and none once it is lifted', () => {
  const { rerender } = render(rowOf(modelView('a/x', { ignoredForcedAt: 0 })));
  expect(screen.queryByText(/refused a request/)).toBeNull();
  expect(screen.getByText(/ignored a forced tool call/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Reset breaker of a/x' })).toBeEnabled();
  rerender(rowOf(modelView('a/x')));
  expect(screen.queryByText(/ignored a forced tool call/)).toBeNull();
  expect(screen.getByRole('button', { name: 'Reset breaker of a/x' })).toBeDisabled();
});

test('the failures counter is labelled in words short enough for one line: failures in a row', () => {
  render(rowOf(modelView('a/x', { consecutiveFailures: 3 })));
  const figure = screen.getByText('failures in a row');
  expect(figure.tagName).toBe('DT');
  expect(figure.nextElementSibling).toHaveTextContent(/^3$/);
});
