import type { ChangeLine } from '../../lib/settings-form.js';

/** What a save did: applied live (each change `from → to`), or why it was not saved. Announced politely. */
export function SaveOutcome({ failure, changes }: { failure: string | null; changes: ChangeLine[] | null }) {
  return (
    <div aria-live="polite">
      {failure && <p className="field-error">Not saved: {failure}</p>}
      {changes && (
        <div className="notice notice-ok" role="status">
          {changes.length === 0 ? (
            <p>Saved — nothing changed.</p>
          ) : (
            <>
              <p>Applied live:</p>
              <ul className="change-list">
                {changes.map((c) => (
                  <li key={c.path}>
                    {c.label} <span className="mono muted">{c.path}</span>:{' '}
                    <span className="mono">{c.from}</span> → <span className="mono">{c.to}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
