import { act, renderHook } from '@testing-library/react';
import { expect, test } from 'vitest';
import { dropDrafts, guardUnload, hasDraft, useDraft } from './drafts.js';

const unsaved = (text: string) => text !== '';

/** Whether the page would ask before unloading now. */
function asksBeforeUnload(): boolean {
  const event = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
  guardUnload(event);
  return event.defaultPrevented;
}

test('state with unsaved edits outlives its component; once saved or discarded it is forgotten', () => {
  const first = renderHook(() => useDraft('note', () => '', unsaved));
  expect(asksBeforeUnload()).toBe(false);
  act(() => first.result.current[1]('typed'));
  expect(asksBeforeUnload()).toBe(true);
  first.unmount();
  expect(asksBeforeUnload(), 'edits of a form no longer on screen').toBe(true);

  const again = renderHook(() => useDraft('note', () => '', unsaved));
  expect(again.result.current[0]).toBe('typed');
  act(() => again.result.current[1](''));
  expect(hasDraft('note')).toBe(false);
  expect(asksBeforeUnload()).toBe(false);
  again.unmount();
  expect(renderHook(() => useDraft('note', () => 'fresh', unsaved)).result.current[0]).toBe('fresh');
});

test('without a key the state is the component’s own; drafts of what is gone can be dropped', () => {
  const plain = renderHook(() => useDraft(null, () => '', unsaved));
  act(() => plain.result.current[1]('typed'));
  expect(asksBeforeUnload()).toBe(false);

  const kept = renderHook(() => useDraft('limits:gone', () => '', unsaved));
  act(() => kept.result.current[1]('10'));
  kept.unmount();
  dropDrafts((key) => key === 'limits:gone');
  expect(asksBeforeUnload()).toBe(false);
});
