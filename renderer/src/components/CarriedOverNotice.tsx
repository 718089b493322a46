/** A value both the user and the file changed: its name, and the file's value where it is short to show. */
export interface BothChanged {
  name: string;
  file: string | null;
}

/**
 * Says that config.json changed under unsaved edits, which were kept on top of it, and names the values it
 * changed too (the user's are kept there). `by`: the other editor of this page whose save changed it
 * ("the Settings form"); else it was changed on disk.
 */
export function CarriedOverNotice({
  conflicts,
  by = null,
}: {
  conflicts: readonly BothChanged[];
  by?: string | null;
}) {
  return (
    <div className="notice notice-warn" role="status">
      {by === null ? (
        <p>
          config.json changed on disk while you were editing: this shows the file now, with your unsaved
          changes kept. Save writes them over it; Discard changes takes the file as it is.
        </p>
      ) : (
        <p>
          {by.charAt(0).toUpperCase() + by.slice(1)} saved config.json while you were editing here: this shows
          the file with that save, and your unsaved changes kept. Save writes them over it; Discard changes
          takes the file as it is.
        </p>
      )}
      {conflicts.length > 0 && (
        <p>
          {by === null ? 'Changed on disk as well' : `Changed by ${by} as well`}, your value kept:{' '}
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
