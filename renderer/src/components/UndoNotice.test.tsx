import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { UndoNotice } from './UndoNotice.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('with takeFocus, Undo has the focus as the notice appears; it stays while focused, then times out', () => {
  const onDismiss = vi.fn();
  render(<UndoNotice what="Removed a." ms={1000} onUndo={() => undefined} onDismiss={onDismiss} takeFocus />);
  const undo = screen.getByRole('button', { name: 'Undo' });
  expect(undo).toHaveFocus();
  act(() => vi.advanceTimersByTime(5000));
  expect(onDismiss).not.toHaveBeenCalled();
  fireEvent.blur(undo, { relatedTarget: document.body });
  act(() => vi.advanceTimersByTime(1000));
  expect(onDismiss).toHaveBeenCalledOnce();
});

test('without takeFocus the focus stays where it was, and the notice goes after its time', () => {
  const onDismiss = vi.fn();
  render(<UndoNotice what="Removed a." ms={1000} onUndo={() => undefined} onDismiss={onDismiss} />);
  expect(screen.getByRole('button', { name: 'Undo' })).not.toHaveFocus();
  act(() => vi.advanceTimersByTime(1000));
  expect(onDismiss).toHaveBeenCalledOnce();
});
