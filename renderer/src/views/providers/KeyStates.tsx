import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { KeyView, ProviderView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { Countdown } from '../../components/Countdown.js';
import { errorText } from '../../components/QueryStatus.js';
import { UndoNotice } from '../../components/UndoNotice.js';
import { KeyBudget } from './KeyBudget.js';
import { KeyTest, type TestTarget } from './KeyTest.js';
import { countOf } from '../../lib/format.js';

const STATE_WORDS: Record<KeyView['state'], string> = {
  usable: 'usable',
  paused: 'paused',
  invalid: 'refused',
};

/**
 * One key: fingerprint, where it comes from, its state and budget use, a test of that key; a config key can
 * be removed.
 */
function KeyItem({
  keyView: key,
  provider,
  target,
  onRemove,
  busy,
}: {
  keyView: KeyView;
  provider: ProviderView;
  target: TestTarget;
  onRemove(): void;
  busy: boolean;
}) {
  const providerName = provider.name;
  return (
    <li className={`key-state key-state-${key.state}`}>
      <div className="key-state-head">
        <code className="mono small" title="key fingerprint (a hash of the key)">
          {key.fingerprint}
        </code>
        <span className="muted small">{key.source === 'config' ? 'config' : `$${key.source}`}</span>
        <span className="small key-state-word">{STATE_WORDS[key.state]}</span>
        {key.pausedUntil !== null && <Countdown label="back" until={key.pausedUntil} />}
        {key.state === 'usable' && key.pausedModels > 0 && (
          <span className="muted small">{countOf(key.pausedModels, 'model')} paused</span>
        )}
        <KeyTest provider={provider} target={target} fingerprint={key.fingerprint} className="key-test" />
        {key.source === 'config' && (
          <button
            type="button"
            className="btn btn-small btn-danger"
            onClick={onRemove}
            disabled={busy}
            aria-label={`Remove key ${key.fingerprint} of ${providerName}`}
            data-remove-key={key.fingerprint}
          >
            Remove
          </button>
        )}
      </div>
      <KeyBudget budgets={key.budgets} />
    </li>
  );
}

/**
 * Gives the focus to a key's Remove button once the key is listed again: after Undo (whose notice goes
 * away with the focus on it), the focus returns to the key that came back. It waits while the restore is
 * on its way and the list is read again, is let go when the restore failed, and never takes the focus from
 * where the user put it.
 */
function useRestoredFocus(block: RefObject<HTMLDivElement | null>, failed: boolean) {
  const wanted = useRef<string | null>(null);
  // On every render: the key comes back with the list read again after the restore.
  useLayoutEffect(() => {
    const fingerprint = wanted.current;
    if (fingerprint === null) return;
    if (failed) {
      wanted.current = null;
      return;
    }
    const button = block.current?.querySelector<HTMLElement>(
      `[data-remove-key="${CSS.escape(fingerprint)}"]`,
    );
    if (!button) return;
    wanted.current = null;
    const active = document.activeElement;
    if (active === null || active === document.body) button.focus();
  });
  return (fingerprint: string): void => {
    wanted.current = fingerprint;
  };
}

/**
 * Each key of a provider, named by its fingerprint only, in the order they are tried, with its state
 * (usable, paused until when, refused), its budget use and a test of that key alone (to `target`). A
 * removal can be undone while the router holds the key (it never comes to the page): after a removal the
 * focus is on Undo, after Undo on the key's Remove button again.
 */
export function KeyStates({ provider, target }: { provider: ProviderView; target: TestTarget }) {
  const client = useQueryClient();
  const [removed, setRemoved] = useState<{ fingerprint: string; ms: number } | null>(null);
  const dismiss = useCallback(() => setRemoved(null), []);
  const refresh = () => client.invalidateQueries();
  const remove = useMutation({
    mutationFn: (fingerprint: string) => api.removeProviderKey(provider.id, fingerprint),
    onSuccess: (answer, fingerprint) => setRemoved({ fingerprint, ms: answer.undoForMs }),
    onSettled: refresh,
  });
  const restore = useMutation({
    mutationFn: (fingerprint: string) => api.restoreProviderKey(provider.id, fingerprint),
    onSuccess: () => setRemoved(null),
    onSettled: refresh,
  });
  const block = useRef<HTMLDivElement>(null);
  const refocus = useRestoredFocus(block, restore.isError);
  const error = remove.error ?? restore.error;
  if (provider.keys.length === 0 && removed === null && !error) return null;
  return (
    <div className="key-states-block" ref={block}>
      <ul className="key-states" aria-label={`${provider.name} keys`}>
        {provider.keys.map((key) => (
          <KeyItem
            key={key.fingerprint}
            keyView={key}
            provider={provider}
            target={target}
            onRemove={() => remove.mutate(key.fingerprint)}
            busy={remove.isPending}
          />
        ))}
      </ul>
      {removed && (
        <UndoNotice
          key={removed.fingerprint}
          what={
            <>
              Removed key <code>{removed.fingerprint}</code> of {provider.name}.
            </>
          }
          ms={removed.ms}
          onUndo={() => {
            refocus(removed.fingerprint);
            restore.mutate(removed.fingerprint);
          }}
          onDismiss={dismiss}
          busy={restore.isPending}
          takeFocus
        />
      )}
      {error && <span className="field-error">{errorText(error)}</span>}
    </div>
  );
}
