import { CopyButton } from './CopyButton.js';

/** A labelled, copyable value on one line (base URL, model name, key). */
export function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <div className="copy-field">
      <span className="copy-label">{label}</span>
      <code className="copy-value">{value}</code>
      <CopyButton text={value} name={`Copy ${label}`} />
    </div>
  );
}
