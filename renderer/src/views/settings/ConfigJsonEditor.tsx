import type { ConfigCheckResponse, ConfigResponse } from '../../../../router/api-types.js';
import type { TextProblem } from '../../lib/config-json.js';
import { CarriedOverNotice } from '../../components/CarriedOverNotice.js';
import { JsonEditor } from './JsonEditor.js';
import { SaveOutcome } from './SaveOutcome.js';
import { useConfigJson } from './use-config-json.js';
import type { SaveConfig } from './use-settings-form.js';

/** The text's problems in words, each with its line and JSON path, beside the editor for screen readers. */
function ProblemList({ problems }: { problems: readonly TextProblem[] }) {
  if (problems.length === 0) return <p className="muted small config-json-ok">No problems found.</p>;
  return (
    <ul className="config-json-problems" aria-label="Problems in the config">
      {problems.map((problem) => (
        <li key={`${problem.line}:${problem.path ?? ''}:${problem.message}`}>
          <span className="mono muted">line {problem.line}</span>{' '}
          {problem.path && <code>{problem.path}</code>}
          {problem.path && ': '}
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

/** What saving would cost: the keys of providers sent to another address, which are never carried there. */
function KeysDroppedWarning({ providers }: { providers: readonly string[] }) {
  if (providers.length === 0) return null;
  const names = providers.join(', ');
  return (
    <p className="notice notice-warn small" role="status">
      Saving drops the keys of {names}: {providers.length === 1 ? 'its' : 'their'} address or headers change,
      and a key is never sent to a new address. Add {providers.length === 1 ? 'it' : 'them'} again in
      Providers after saving, or put the address back to keep {providers.length === 1 ? 'it' : 'them'}.
    </p>
  );
}

/**
 * The whole config as JSON (keys masked: a masked key sent back keeps the stored one). Checked by the
 * router as you type, with the same words as the form; saved through the same guarded save, live.
 */
export function ConfigJsonEditor({
  config,
  onSave,
  check,
  savedBy = null,
}: {
  config: ConfigResponse;
  onSave: SaveConfig;
  check(value: unknown): Promise<ConfigCheckResponse>;
  /** Who made the config's revision, when it was a save from the Settings form on this page. */
  savedBy?: string | null;
}) {
  const editor = useConfigJson(config, onSave, check, savedBy, 'config-json');
  return (
    <div className="config-json">
      <JsonEditor
        value={editor.text}
        onChange={editor.setText}
        problems={editor.problems}
        label="Config JSON"
      />
      <ProblemList problems={editor.problems} />
      <KeysDroppedWarning providers={editor.keysDropped} />
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void editor.save()}
          disabled={editor.saving}
        >
          {editor.saving ? 'Saving…' : 'Save JSON'}
        </button>
        <button
          type="button"
          className="btn"
          onClick={editor.discard}
          disabled={!editor.dirty}
          aria-label="Discard changes to the JSON"
        >
          Discard changes
        </button>
        {editor.dirty && <span className="muted small">unsaved changes</span>}
        <span className="muted small">
          File: <code>{config.path}</code>
        </span>
      </div>
      {editor.carried && (
        <CarriedOverNotice
          conflicts={editor.carried.conflicts.map((path) => ({ name: path, file: null }))}
          by={editor.carried.by}
        />
      )}
      <SaveOutcome failure={editor.failure} changes={editor.changes} />
    </div>
  );
}
