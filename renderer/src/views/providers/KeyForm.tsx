import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';

/**
 * A write-only field that adds a key after the provider's others (they are tried in turn when one is rate
 * limited or refused). The key goes to the router once and is never read back; the field is cleared as
 * soon as it is sent, and the page only learns the key's fingerprint. A refusal is shown until the
 * provider's keys change (the key it was a duplicate of removed, say).
 */
export function KeyForm({ provider }: { provider: ProviderView }) {
  const client = useQueryClient();
  const inputId = useId();
  const hintId = useId();
  const [key, setKey] = useState('');
  // The keys when a key was sent: a refusal ("already one of its keys") is about that list only.
  const keys = provider.keys.map((k) => k.fingerprint).join(' ');
  const add = useMutation({
    mutationFn: ({ apiKey }: { apiKey: string; keys: string }) => api.addProviderKey(provider.id, apiKey),
    onSuccess: () => setKey(''),
    onSettled: () => client.invalidateQueries(),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (key.trim()) add.mutate({ apiKey: key.trim(), keys });
  };
  const error = add.variables?.keys === keys ? add.error : null;
  const hasKeys = provider.keys.length > 0;
  // Only while the added key is still listed: once removed, its "added as" would contradict the card.
  const added =
    add.data && provider.keys.some((k) => k.fingerprint === add.data.fingerprint) ? add.data : null;
  // Keys in the config take the place of keys from the environment: say so before one is added.
  const fromEnv = provider.keys.some((k) => k.source !== 'config');
  return (
    <form className="key-form inline-form" onSubmit={submit}>
      <label htmlFor={inputId} className="sr-only">
        API key for {provider.name}
      </label>
      <input
        id={inputId}
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={hasKeys ? 'paste another key' : 'paste API key'}
        aria-describedby={fromEnv ? hintId : undefined}
        value={key}
        onChange={(e) => {
          setKey(e.target.value);
          add.reset();
        }}
      />
      <button
        type="submit"
        className="btn btn-small"
        disabled={add.isPending || !key.trim()}
        aria-label={`Add key to ${provider.name}`}
      >
        Add key
      </button>
      {fromEnv && (
        <span id={hintId} className="small muted">
          a key added here is used instead of the environment’s
        </span>
      )}
      {added && (
        <span className="small ok-text" role="status">
          added as <code>{added.fingerprint}</code>
        </span>
      )}
      {error && <span className="field-error">{errorText(error, { apiKey: 'key' })}</span>}
    </form>
  );
}
