import { useId } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import { humanizeUnit } from '../../lib/format.js';
import { lastResortWarning } from '../../lib/last-resort.js';
import type { SettingsField } from '../../lib/settings-fields.js';
import { LastResortPicker } from './LastResortPicker.js';

function unitHint(field: SettingsField, text: string): string | null {
  if (field.unit !== 'ms' && field.unit !== 'bytes') return null;
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? `= ${humanizeUnit(n, field.unit)}` : null;
}

interface ControlProps {
  field: SettingsField;
  id: string;
  value: string;
  defaultText: string;
  describedBy: string;
  invalid: boolean;
  providers?: readonly ProviderView[];
  onChange(value: string): void;
}

/** The input of one knob: a list for a choice, the model picker for the last resort, else a text box. */
function FieldControl({
  field,
  id,
  value,
  defaultText,
  describedBy,
  invalid,
  providers,
  onChange,
}: ControlProps) {
  const common = { id, value, 'aria-describedby': describedBy, 'aria-invalid': invalid };
  if (field.kind === 'modelKey' && providers)
    return <LastResortPicker {...{ id, value, providers, describedBy, invalid, onChange }} />;
  if (field.kind === 'enum' || field.kind === 'bool')
    return (
      <select {...common} onChange={(e) => onChange(e.target.value)}>
        {(field.options ?? []).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  const textual = field.kind === 'modelKey' || field.kind === 'hedge';
  return (
    <input
      {...common}
      name={field.path}
      className="mono"
      inputMode={textual ? 'text' : field.kind === 'int' ? 'numeric' : 'decimal'}
      placeholder={field.kind === 'modelKey' ? 'none' : field.kind === 'hedge' ? 'off' : defaultText}
      onChange={(e) => onChange(e.target.value)}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

/** One knob: label, input, unit, default, explanation, and the server's error for it, if any. */
export function SettingsFieldInput(props: {
  field: SettingsField;
  value: string;
  defaultText: string;
  errors: readonly string[] | undefined;
  dirty: boolean;
  /** The catalogue with key status (the last-resort field lists its models, usable ones first). */
  providers?: readonly ProviderView[];
  onChange(value: string): void;
}) {
  const { field, value, errors, dirty } = props;
  const id = useId();
  const [helpId, errorId] = [`${id}-help`, `${id}-error`];
  const invalid = (errors?.length ?? 0) > 0;
  const hint = unitHint(field, value);
  const warning = field.kind === 'modelKey' ? lastResortWarning(props.providers ?? [], value) : null;
  return (
    <div className={`field ${invalid ? 'field-invalid' : ''} ${dirty ? 'field-dirty' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {dirty && <span className="dirty-dot" title="changed, not saved" aria-label="(changed)" />}
      </label>
      <div className="field-control">
        <FieldControl
          {...props}
          id={id}
          describedBy={invalid ? `${errorId} ${helpId}` : helpId}
          invalid={invalid}
        />
        {field.unit && <span className="unit">{field.unit}</span>}
        {hint && <span className="muted small">{hint}</span>}
      </div>
      {warning && <p className="field-warning">{warning}</p>}
      {invalid && (
        <p id={errorId} className="field-error" role="alert">
          {errors?.join('; ')}
        </p>
      )}
      <p id={helpId} className="field-help">
        {field.help}{' '}
        <span className="muted">
          Default: <span className="mono">{props.defaultText || 'none'}</span>
        </span>
      </p>
    </div>
  );
}
