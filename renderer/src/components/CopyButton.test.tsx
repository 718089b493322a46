import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CopyButton } from './CopyButton.js';

/** What `document.execCommand('copy')` found selected, each time it was asked. */
let copied: string[] = [];
let copyWorks = true;

/**
 * A user on a page over plain http (`--allow-remote`): not a secure context, so no Clipboard API at all
 * (set after user-event's setup, which puts a stand-in clipboard on the page).
 */
function userOnInsecurePage() {
  const user = userEvent.setup();
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  return user;
}

beforeEach(() => {
  copied = [];
  copyWorks = true;
  Object.defineProperty(document, 'execCommand', {
    configurable: true,
    value: (command: string) => {
      const area = document.activeElement;
      if (command === 'copy' && area instanceof HTMLTextAreaElement) copied.push(area.value);
      return copyWorks;
    },
  });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(document, 'execCommand');
});

test('without the Clipboard API the text is copied through a hidden selection, and the focus stays', async () => {
  const user = userOnInsecurePage();
  render(<CopyButton text="http://192.0.2.2:19280/v1" />);
  const button = screen.getByRole('button', { name: 'Copy' });
  await user.click(button);
  expect(await screen.findByText('Copied')).toBe(button);
  expect(copied).toEqual(['http://192.0.2.2:19280/v1']);
  expect(button).toHaveFocus();
  expect(document.querySelector('textarea')).toBeNull();
});

test('when no copy is let through, the button says so and how to copy by hand', async () => {
  const user = userOnInsecurePage();
  copyWorks = false;
  render(<CopyButton text="fcm" />);
  await user.click(screen.getByRole('button'));
  expect(await screen.findByText('Copy failed — select and copy')).toBe(screen.getByRole('button'));
});
