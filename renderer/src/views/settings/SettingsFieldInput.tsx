import { useId } from 'react';
import { humanizeUnit } from '../../lib/format.js';
import type { SettingsField } from '../../lib/settings-fields.js';

function unitHint(field: SettingsField, text: string): string | null {
  if (field.unit !== 'ms' && field.unit !== 'bytes') return null;
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? `= ${humanizeUnit(n, field.unit)}` : null;
}

/** One knob: label, input, unit, default, explanation, and the server's error for it, if any. */
export function SettingsFieldInput({
  field,
  value,
  defaultText,
  errors,
  dirty,
  choices,
  onChange,
}: {
  field: SettingsField;
  value: string;
  defaultText: string;
  errors: readonly string[] | undefined;
  dirty: boolean;
  /** Values to offer while typing (the known models, for a model field). */
  choices?: readonly string[];
  onChange(value: string): void;
}) {
  const id = useId();
  const listId = `${id}-choices`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const invalid = (errors?.length ?? 0) > 0;
  const describedBy = invalid ? `${errorId} ${helpId}` : helpId;
  const hint = unitHint(field, value);
  return (
    <div className={`field ${invalid ? 'field-invalid' : ''} ${dirty ? 'field-dirty' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {dirty && <span className="dirty-dot" title="changed, not saved" aria-label="(changed)" />}
      </label>
      <div className="field-control">
        {field.kind === 'enum' ? (
          <select
            id={id}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          >
            {(field.options ?? []).map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            name={field.path}
            className="mono"
            inputMode={
              field.kind === 'modelKey' || field.kind === 'hedge'
                ? 'text'
                : field.kind === 'int'
                  ? 'numeric'
                  : 'decimal'
            }
            value={value}
            placeholder={field.kind === 'modelKey' ? 'none' : field.kind === 'hedge' ? 'off' : defaultText}
            onChange={(e) => onChange(e.target.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            autoComplete="off"
            spellCheck={false}
            list={choices ? listId : undefined}
          />
        )}
        {choices && (
          <datalist id={listId}>
            {choices.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        )}
        {field.unit && <span className="unit">{field.unit}</span>}
        {hint && <span className="muted small">{hint}</span>}
      </div>
      {invalid && (
        <p id={errorId} className="field-error" role="alert">
          {errors?.join('; ')}
        </p>
      )}
      <p id={helpId} className="field-help">
        {field.help}{' '}
        <span className="muted">
          Default: <span className="mono">{defaultText || 'none'}</span>
        </span>
      </p>
    </div>
  );
}
