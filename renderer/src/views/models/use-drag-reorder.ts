import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { moveTo } from './use-set-editor.js';

/** What a drag handle needs: pointer dragging, and the keyboard way to do the same. */
export interface HandleProps {
  'data-handle-for': string;
  onPointerDown(event: PointerEvent<HTMLElement>): void;
  onPointerMove(event: PointerEvent<HTMLElement>): void;
  onPointerUp(event: PointerEvent<HTMLElement>): void;
  onPointerCancel(): void;
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
}

/**
 * Reordering a list by dragging a row's handle (pointer events, so mouse, pen and touch alike), with the
 * keyboard equivalent on the same handle: ↑/↓ move one place, Home/End to the ends. While dragging, the
 * list shows where the row would land; the drop calls `onMove` once. Focus stays on the moved row's handle.
 */
export function useDragReorder(list: readonly string[], onMove: (key: string, index: number) => void) {
  const container = useRef<HTMLOListElement>(null);
  const [drag, setDrag] = useState<{ key: string; index: number } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const refocus = useRef<{ key: string; list: readonly string[] } | null>(null);

  // Rows are moved in the DOM when the order changes, which drops focus: give it back to the handle once
  // the new order is on screen.
  useLayoutEffect(() => {
    const wanted = refocus.current;
    if (wanted === null || wanted.list === list) return;
    refocus.current = null;
    const handle = container.current?.querySelector<HTMLElement>(
      `[data-handle-for="${CSS.escape(wanted.key)}"]`,
    );
    handle?.focus();
  });

  /** Where the dragged row lands: after every other row whose middle is above the pointer. */
  const indexAt = (key: string, clientY: number): number => {
    const rows = container.current?.querySelectorAll<HTMLElement>('[data-set-key]') ?? [];
    let index = 0;
    for (const row of rows) {
      if (row.dataset.setKey === key) continue;
      const rect = row.getBoundingClientRect();
      if (rect.top + rect.height / 2 < clientY) index += 1;
    }
    return index;
  };

  const commit = (key: string, index: number, keyboard: boolean): void => {
    if (keyboard && list.indexOf(key) !== index) refocus.current = { key, list };
    setAnnouncement(`${key} moved to place ${Math.min(index, list.length - 1) + 1} of ${list.length}`);
    if (list.indexOf(key) !== index) onMove(key, index);
  };

  const handleProps = (key: string): HandleProps => ({
    'data-handle-for': key,
    onPointerDown: (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      setDrag({ key, index: list.indexOf(key) });
    },
    onPointerMove: (event) => {
      if (drag?.key !== key) return;
      const index = indexAt(key, event.clientY);
      if (index !== drag.index) setDrag({ key, index });
    },
    onPointerUp: () => {
      if (drag?.key !== key) return;
      setDrag(null);
      commit(key, drag.index, false);
    },
    onPointerCancel: () => setDrag(null),
    onKeyDown: (event) => {
      const from = list.indexOf(key);
      const to =
        event.key === 'ArrowUp'
          ? from - 1
          : event.key === 'ArrowDown'
            ? from + 1
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? list.length - 1
                : null;
      if (to === null) return;
      event.preventDefault();
      commit(key, Math.min(list.length - 1, Math.max(0, to)), true);
    },
  });

  return {
    container,
    /** The list as it would be if the row being dragged were dropped now. */
    shown: drag ? moveTo(list, drag.key, drag.index) : list,
    dragging: drag?.key ?? null,
    announcement,
    handleProps,
  };
}
