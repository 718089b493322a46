import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DiscoveryResponse, ProviderView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';
import { formatUptime } from '../../lib/format.js';
import { useNow } from '../../lib/use-now.js';

/** Providers whose model list can be fetched: enabled, with a URL and a key (or none needed). */
export function discoverable(providers: readonly ProviderView[]): ProviderView[] {
  return providers.filter(
    (p) => p.enabled && !p.unresolvable && p.keyStatus !== 'missing' && p.keyStatus !== 'invalid',
  );
}

/** One provider's list in words: `groq: 14 listed, 1 gone (skipped), 2 new`. */
export function discoveryWords(result: DiscoveryResponse): string {
  const parts = [`${result.listed} listed`];
  if (result.vanished.length > 0) parts.push(`${result.vanished.length} gone (skipped)`);
  if (result.discovered.length > 0) parts.push(`${result.discovered.length} new (offered below)`);
  return `${result.provider}: ${parts.join(', ')}`;
}

/**
 * When the providers' lists were last fetched, in words: the router fetches each by itself once a day, so
 * the button is for "now".
 */
export function lastCheckWords(providers: readonly ProviderView[], now: number): string {
  const times = providers.flatMap((p) => (p.discoveredAt === null ? [] : [p.discoveredAt]));
  const daily = 'The router fetches them by itself once a day';
  if (times.length === 0) return `${daily}; not fetched yet.`;
  return `${daily}; last fetched ${formatUptime(Math.max(0, now - Math.max(...times)))} ago.`;
}

/**
 * Fetches the model lists of the providers in use: catalogue models a provider no longer lists are
 * skipped from then on, and models it lists that the router lacks are offered in "Add a model".
 */
export function DiscoverModels({
  providers,
  inSet,
}: {
  providers: readonly ProviderView[];
  inSet: readonly string[];
}) {
  const client = useQueryClient();
  const now = useNow(60_000);
  const used = new Set(inSet.map((key) => key.slice(0, key.indexOf('/'))));
  const targets = discoverable(providers).filter((p) => used.has(p.id) || p.keyStatus !== 'not_required');
  const check = useMutation({
    mutationFn: async () => {
      const results = await Promise.allSettled(targets.map((p) => api.discoverModels(p.id)));
      return results.map((result, i) =>
        result.status === 'fulfilled'
          ? discoveryWords(result.value)
          : `${targets[i]?.id ?? '?'}: ${errorText(result.reason)}`,
      );
    },
    onSettled: () => client.invalidateQueries(),
  });
  return (
    <div className="discover-models">
      <button
        type="button"
        className="btn btn-small"
        disabled={check.isPending || targets.length === 0}
        onClick={() => check.mutate()}
        title="Fetches each provider's own model list with its key"
      >
        {check.isPending ? 'Checking…' : 'Check the providers’ model lists'}
      </button>{' '}
      <span className="muted small">{lastCheckWords(targets, now)}</span>
      {check.data && (
        <ul className="muted small" aria-label="Model lists" aria-live="polite">
          {check.data.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
