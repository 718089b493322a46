import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';

/**
 * A write-only key field: the key goes to the router once and is never read back, and the field is
 * cleared as soon as it is sent. The page only ever learns "key set".
 */
export function KeyForm({ provider }: { provider: ProviderView }) {
  const client = useQueryClient();
  const inputId = useId();
  const [key, setKey] = useState('');
  const save = useMutation({
    mutationFn: (apiKey: string) => api.setProviderKey(provider.id, apiKey),
    onSuccess: () => setKey(''),
    onSettled: () => client.invalidateQueries(),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (key.trim()) save.mutate(key.trim());
  };
  const stored =
    provider.keyStatus === 'set' || (provider.keyStatus === 'invalid' && provider.keySource === 'config');
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
        placeholder={stored ? 'key set — paste to replace' : 'paste API key'}
        value={key}
        onChange={(e) => setKey(e.target.value)}
      />
      <button type="submit" className="btn btn-small" disabled={save.isPending || !key.trim()}>
        Save key
      </button>
      {stored && (
        <button
          type="button"
          className="btn btn-small btn-danger"
          disabled={save.isPending}
          onClick={() => save.mutate('')}
        >
          Remove key
        </button>
      )}
      {save.isSuccess && (
        <span className="small ok-text" role="status">
          saved
        </span>
      )}
      {save.error && <span className="field-error">{errorText(save.error)}</span>}
    </form>
  );
}
