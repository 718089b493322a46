import { useEffect, type ReactNode } from 'react';

/**
 * "Removed … [Undo]" after a removal: offered for `ms`, then dismissed (the removal stays). A new
 * `what` starts the time again.
 */
export function UndoNotice({
  what,
  ms,
  onUndo,
  onDismiss,
  busy = false,
}: {
  what: ReactNode;
  ms: number;
  onUndo(): void;
  onDismiss(): void;
  busy?: boolean;
}) {
  useEffect(() => {
    const timer = setTimeout(onDismiss, ms);
    return () => clearTimeout(timer);
  }, [what, ms, onDismiss]);
  return (
    <div className="notice notice-undo" role="status">
      <span>{what}</span>
      <button type="button" className="btn btn-small" onClick={onUndo} disabled={busy}>
        Undo
      </button>
    </div>
  );
}
