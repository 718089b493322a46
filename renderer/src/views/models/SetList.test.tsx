import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { SetList } from './SetList.js';

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SetList
        sets={{ default: ['a/x', 'b/y'], fast: ['b/y'] }}
        activeSet="default"
        orders={{ fast: 'fastest' }}
      />
    </QueryClientProvider>,
  );
}

const setItem = (name: string) => screen.getByRole('listitem', { name: `Set ${name}` });

test('each set shows its order: priority unless the config says fastest', () => {
  show();
  const pressed = (name: string) =>
    within(screen.getByRole('group', { name: `Order of set ${name}` }))
      .getAllByRole('button')
      .filter((button) => button.getAttribute('aria-pressed') === 'true')
      .map((button) => button.textContent);
  expect(pressed('default')).toEqual(['priority']);
  expect(pressed('fast')).toEqual(['fastest']);
});

test('the active set cannot be deleted; another one is deleted only after a question', () => {
  show();
  expect(within(setItem('default')).getByRole('button', { name: 'Delete set default' })).toBeDisabled();
  fireEvent.click(within(setItem('fast')).getByRole('button', { name: 'Delete set fast' }));
  const ask = screen.getByRole('alertdialog', { name: 'Delete set fast' });
  expect(ask).toHaveTextContent(
    'Delete the set “fast” (1 model)? Requests that name fcm:fast are refused after',
  );
  fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('alertdialog')).toBeNull();
});

test('renaming asks for the name and says what happens to requests naming the set', () => {
  show();
  fireEvent.click(within(setItem('fast')).getByRole('button', { name: 'Rename set fast' }));
  expect(screen.getByRole('form', { name: 'Rename set fast' }).querySelector('p')).toHaveTextContent(
    /^Rename set “fast”\? Requests that name fcm:fast must use the new name after\.$/,
  );
  fireEvent.click(within(setItem('default')).getByRole('button', { name: 'Rename set default' }));
  const form = screen.getByRole('form', { name: 'Rename set default' });
  expect(form.querySelector('p')).toHaveTextContent(
    /^Rename set “default”\? Agents’ fcm requests stay on this set under its new name; requests that name fcm:default must use the new name after\.$/,
  );
  const confirm = within(form).getByRole('button', { name: 'Rename “default”' });
  expect(confirm).toBeDisabled();
  fireEvent.change(within(form).getByLabelText('New name for set default'), { target: { value: 'main' } });
  expect(confirm).toBeEnabled();
});

test('Escape puts a question away as Cancel does, and leaves the keyboard on the button that asked it', () => {
  show();
  const rename = within(setItem('fast')).getByRole('button', { name: 'Rename set fast' });
  fireEvent.click(rename);
  const input = screen.getByRole('textbox', { name: 'New name for set fast' });
  fireEvent.change(input, { target: { value: 'quick' } });
  fireEvent.keyDown(input, { key: 'Escape' });
  expect(screen.queryByRole('form', { name: 'Rename set fast' })).toBeNull();
  expect(rename).toHaveFocus();

  const remove = within(setItem('fast')).getByRole('button', { name: 'Delete set fast' });
  fireEvent.click(remove);
  const ask = screen.getByRole('alertdialog', { name: 'Delete set fast' });
  fireEvent.keyDown(within(ask).getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(remove).toHaveFocus();
});
