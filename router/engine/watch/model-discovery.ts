/**
 * Model discovery: fetches a provider's own model list with one of its usable keys, records it, and has the
 * config resolved again with it, so catalogue models the provider no longer lists are skipped
 * (`model_vanished`) before an agent meets their 404, and models it lists that the router lacks are known.
 */
import type { LiveConfig } from '../../config/live-config.js';
import type { Time } from '../../state/clock.js';
import type { DiscoveryBook } from '../../state/discovery-book.js';
import type { QuotaBook } from '../../state/quota-book.js';
import type { UpstreamClient } from '../../upstream/upstream-client.js';
import { keysOf } from '../booking/key-rotation.js';

export type DiscoveryResult =
  | {
      ok: true;
      provider: string;
      /** How many models the provider listed. */
      listed: number;
      /** Catalogue models of the provider it no longer lists (skipped from now on). */
      vanished: string[];
      /** Model ids it lists that the router has no entry for. */
      discovered: string[];
    }
  | { ok: false; status: 404 | 409 | 502; code: string; message: string };

/**
 * What a discovery reads and writes: the config, the keys' state, the lists kept, the router's time, and the
 * upstream client the list is fetched over (the provider's own pool and proxy).
 */
export interface DiscoveryParts {
  live: LiveConfig;
  quotas: QuotaBook;
  discovery: DiscoveryBook;
  time: Time;
  upstream: Pick<UpstreamClient, 'listModels'>;
}

/** Fetches and applies one provider's model list. */
export async function discoverModels(parts: DiscoveryParts, providerId: string): Promise<DiscoveryResult> {
  const { live, quotas, discovery } = parts;
  const provider = live.resolved.providers.get(providerId);
  if (provider === undefined)
    return {
      ok: false,
      status: 404,
      code: 'provider_not_found',
      message: `unknown provider "${providerId}"`,
    };
  if (provider.baseUrl === null)
    return {
      ok: false,
      status: 409,
      code: 'provider_unresolvable',
      message: `${providerId} has no usable base URL`,
    };
  const key = keysOf(provider).find((candidate) => !quotas.isAuthBlocked(provider.id, candidate.fingerprint));
  if (key === undefined || (provider.keyRequired && key.value === ''))
    return { ok: false, status: 409, code: 'missing_key', message: `${providerId} has no usable key` };
  const target = {
    baseUrl: provider.baseUrl,
    apiKey: key.value === '' ? null : key.value,
    headers: provider.headers,
  };
  const list = await parts.upstream.listModels(provider.id, target, parts.time);
  if (!list.ok) {
    discovery.attempted(provider.id);
    return { ok: false, status: 502, code: 'discovery_failed', message: `${providerId}: ${list.error}` };
  }
  discovery.record(provider.id, list.ids, list.windows);
  await live.rediscovered();
  const now = live.resolved;
  const vanished = [...now.models.values()]
    .filter((model) => model.provider === provider.id && model.vanished === true)
    .map((model) => model.key);
  const discovered = now.providers.get(provider.id)?.discoveredNew ?? [];
  return { ok: true, provider: provider.id, listed: list.ids.length, vanished, discovered };
}
