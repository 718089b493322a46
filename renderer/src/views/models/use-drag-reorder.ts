import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import { moveTo } from './use-set-editor.js';

/** What a drag handle needs: pointer dragging, and the keyboard way to do the same. */
export interface HandleProps {
  'data-handle-for': string;
  onPointerDown(event: PointerEvent<HTMLElement>): void;
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
}

/** What a drag in progress needs from its hook. */
interface DragListeners {
  dragKey: string | null;
  container: RefObject<HTMLOListElement | null>;
  latest: RefObject<{ list: readonly string[]; onMove: (key: string, index: number) => void }>;
  setDrag(drag: { key: string; index: number } | null): void;
  announce(key: string, index: number, length: number): void;
}

/**
 * The window listeners of a drag in progress: the pointer's moves set where the row would land, the drop
 * commits it once, a cancel drops it. The rows move in the DOM while the preview follows the pointer, which
 * would drop a pointer capture on the handle: the drag listens on the window instead.
 */
function useDragListeners({ dragKey, container, latest, setDrag, announce }: DragListeners): void {
  useEffect(() => {
    if (dragKey === null) return undefined;
    let index = latest.current.list.indexOf(dragKey);
    /** Where the dragged row lands: after every other row whose middle is above the pointer. */
    const indexAt = (clientY: number): number => {
      const rows = container.current?.querySelectorAll<HTMLElement>('[data-set-key]') ?? [];
      let at = 0;
      for (const row of rows) {
        if (row.dataset.setKey === dragKey) continue;
        const rect = row.getBoundingClientRect();
        if (rect.top + rect.height / 2 < clientY) at += 1;
      }
      return at;
    };
    const move = (event: globalThis.PointerEvent): void => {
      const at = indexAt(event.clientY);
      if (at === index) return;
      index = at;
      setDrag({ key: dragKey, index: at });
    };
    const drop = (): void => {
      setDrag(null);
      const { list: current, onMove: commit } = latest.current;
      announce(dragKey, index, current.length);
      if (current.indexOf(dragKey) !== index) commit(dragKey, index);
    };
    const cancel = (): void => setDrag(null);
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', drop);
    window.addEventListener('pointercancel', cancel);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', drop);
      window.removeEventListener('pointercancel', cancel);
    };
    // The setters and refs are stable; a new drag (its key) is what restarts the listeners.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dragKey]);
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
  // The latest list and move handler, for the window listeners of a drag in progress.
  const latest = useRef({ list, onMove });
  useEffect(() => {
    latest.current = { list, onMove };
  });

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

  const announce = (key: string, index: number, length: number): void =>
    setAnnouncement(`${key} moved to place ${index + 1} of ${length}`);

  useDragListeners({ dragKey: drag?.key ?? null, container, latest, setDrag, announce });

  const handleProps = (key: string): HandleProps => ({
    'data-handle-for': key,
    onPointerDown: (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      setDrag({ key, index: list.indexOf(key) });
    },
    onKeyDown: (event) => {
      const from = list.indexOf(key);
      const last = list.length - 1;
      const keys: Record<string, number> = { ArrowUp: from - 1, ArrowDown: from + 1, Home: 0, End: last };
      const to = keys[event.key];
      if (to === undefined) return;
      event.preventDefault();
      const index = Math.min(last, Math.max(0, to));
      announce(key, index, list.length);
      if (index === from) return;
      refocus.current = { key, list };
      onMove(key, index);
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
