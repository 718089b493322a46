import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * "Removed … [Undo]" after a removal: offered for `ms`, then dismissed (the removal stays). A new
 * `what` starts the time again. `takeFocus`: Undo takes the focus when the notice appears (the control the
 * user removed with went away with its row); while the focus is in the notice, it is not dismissed.
 */
export function UndoNotice({
  what,
  ms,
  onUndo,
  onDismiss,
  busy = false,
  takeFocus = false,
}: {
  what: ReactNode;
  ms: number;
  onUndo(): void;
  onDismiss(): void;
  busy?: boolean;
  takeFocus?: boolean;
}) {
  const undo = useRef<HTMLButtonElement>(null);
  const [held, setHeld] = useState(false);
  // As it appears (a removal after this one shows a new notice).
  useEffect(() => {
    if (takeFocus) undo.current?.focus();
  }, [takeFocus]);
  useEffect(() => {
    if (held) return undefined;
    const timer = setTimeout(onDismiss, ms);
    return () => clearTimeout(timer);
  }, [what, ms, onDismiss, held]);
  return (
    <div
      className="notice notice-undo"
      role="status"
      onFocus={() => setHeld(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setHeld(false);
      }}
    >
      <span>{what}</span>
      <button type="button" className="btn btn-small" onClick={onUndo} disabled={busy} ref={undo}>
        Undo
      </button>
    </div>
  );
}
