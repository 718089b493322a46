import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import { modelView, stateOf } from '../../test-support/fixtures.js';
import { SetBar } from './SetBar.js';

const state = stateOf([modelView('a/x'), modelView('b/y')], {
  activeSet: 'default',
  sets: { default: ['a/x', 'b/y'], fast: ['c/z'] },
});

function renderBar() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SetBar state={state} />
    </QueryClientProvider>,
  );
}

test('"Save as new set" says it switches agents to the set it saves', () => {
  renderBar();
  expect(screen.getByLabelText('New set name')).toHaveAccessibleDescription(
    'saves the current order under this name and switches agents to it',
  );
});

test('"Save as new set" over a name that exists asks first, saying what it replaces; Cancel leaves it', () => {
  renderBar();
  fireEvent.change(screen.getByLabelText('New set name'), { target: { value: 'fast' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save as new set' }));
  const ask = screen.getByRole('alertdialog', { name: 'Replace set fast' });
  expect(ask).toHaveTextContent(
    'A set named “fast” exists (1 model). Replace it with the current order of “default” (2 models)? Agents’ fcm requests then go to “fast”.',
  );
  expect(screen.getByRole('button', { name: 'Replace “fast” and switch to it' })).toBeEnabled();
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(screen.getByLabelText('New set name')).toHaveValue('fast');
});

test('editing the name withdraws the question', () => {
  renderBar();
  const input = screen.getByLabelText('New set name');
  fireEvent.change(input, { target: { value: 'fast' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save as new set' }));
  expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  fireEvent.change(input, { target: { value: 'faster' } });
  expect(screen.queryByRole('alertdialog')).toBeNull();
});
