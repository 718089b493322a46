import type { ConfigResponse } from '../../../../router/api-types.js';
import { CopyButton } from '../../components/CopyButton.js';
import { maskSecrets } from '../../lib/mask-secrets.js';

/** The effective config as JSON, secrets masked. */
export function RawConfig({ config }: { config: ConfigResponse }) {
  const text = JSON.stringify(maskSecrets(config.effective), null, 2);
  return (
    <details className="raw-config">
      <summary>Effective config (JSON, secrets masked)</summary>
      <p className="muted small">
        File: <code>{config.path}</code> <CopyButton text={text} label="Copy JSON" />
      </p>
      <pre tabIndex={0} aria-label="Effective config">
        <code>{text}</code>
      </pre>
    </details>
  );
}
