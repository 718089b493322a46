import type { KeyView } from '../../../../router/api-types.js';
import { Countdown } from '../../components/Countdown.js';

const STATE_WORDS: Record<KeyView['state'], string> = {
  usable: 'usable',
  paused: 'paused',
  invalid: 'refused',
};

/**
 * Each key of a provider, named by its fingerprint only, with its state: usable, paused (until when) or
 * refused by the provider. Shown when the provider has several keys or its one key is not usable.
 */
export function KeyStates({ providerName, keys }: { providerName: string; keys: readonly KeyView[] }) {
  const [only] = keys;
  if (only === undefined || (keys.length === 1 && only.state === 'usable' && only.pausedModels === 0))
    return null;
  return (
    <ul className="key-states" aria-label={`${providerName} keys`}>
      {keys.map((key) => (
        <li key={key.fingerprint} className={`key-state key-state-${key.state}`}>
          <code className="mono small" title="key fingerprint (a hash of the key)">
            {key.fingerprint}
          </code>
          <span className="muted small">{key.source === 'config' ? 'config' : `$${key.source}`}</span>
          <span className="small">{STATE_WORDS[key.state]}</span>
          {key.pausedUntil !== null && <Countdown label="back" until={key.pausedUntil} />}
          {key.state === 'usable' && key.pausedModels > 0 && (
            <span className="muted small">
              {key.pausedModels} {key.pausedModels === 1 ? 'model' : 'models'} paused
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
