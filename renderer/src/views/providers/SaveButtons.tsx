/**
 * A provider settings form's Save and, while it has unsaved changes, Discard; each named for the form and
 * the provider, as every card has the same two.
 */
export function SaveButtons({
  what,
  providerName,
  saving,
  dirty,
  onDiscard,
}: {
  /** `probes` or `limits`. */
  what: string;
  providerName: string;
  saving: boolean;
  dirty: boolean;
  onDiscard(): void;
}) {
  return (
    <>
      <button
        type="submit"
        className="btn btn-small"
        disabled={saving}
        aria-label={`Save ${what} of ${providerName}`}
      >
        Save {what}
      </button>
      {dirty && (
        <button
          type="button"
          className="btn btn-small"
          onClick={onDiscard}
          aria-label={`Discard changes to ${what} of ${providerName}`}
        >
          Discard changes
        </button>
      )}
    </>
  );
}
