import type { ProviderView } from '../../../../router/api-types.js';
import { lastResortChoices } from '../../lib/last-resort.js';

/** The last-resort model as a wide list: models that can serve now first, the others with why not. */
export function LastResortPicker({
  id,
  value,
  providers,
  describedBy,
  invalid,
  onChange,
}: {
  id: string;
  value: string;
  providers: readonly ProviderView[];
  describedBy: string;
  invalid: boolean;
  onChange(value: string): void;
}) {
  return (
    <select
      id={id}
      name="router.failover.lastResortModel"
      className="wide-select mono"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-describedby={describedBy}
      aria-invalid={invalid}
    >
      <option value="">none</option>
      {lastResortChoices(providers, value).map((group) => (
        <optgroup key={group.label} label={group.label}>
          {group.choices.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.text}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
