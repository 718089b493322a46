/** A value both the user and the file changed: its name, and the file's value where it is short to show. */
export interface BothChanged {
  name: string;
  file: string | null;
}

/**
 * Says that config.json changed on disk under unsaved edits, which were kept on top of it, and names the
 * values the file changed too (the user's are kept there).
 */
export function CarriedOverNotice({ conflicts }: { conflicts: readonly BothChanged[] }) {
  return (
    <div className="notice notice-warn" role="status">
      <p>
        config.json changed on disk while you were editing: this shows the file now, with your unsaved changes
        kept. Save writes them over it; Discard changes takes the file as it is.
      </p>
      {conflicts.length > 0 && (
        <p>
          Changed on disk as well, your value kept:{' '}
          {conflicts.map((c, i) => (
            <span key={c.name}>
              {i > 0 && ', '}
              <span className="mono">{c.name}</span>
              {c.file !== null && <> (the file has {c.file})</>}
            </span>
          ))}
          .
        </p>
      )}
    </div>
  );
}
