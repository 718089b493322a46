/**
 * What the newest agent requests of the active set got, read from the request history: the input the
 * health verdict needs to turn red when agents are failed while every breaker still looks fine (a network
 * that is down spares the models, by the offline rule). Pure.
 */
import type { FailureKind, HealthAction, HistoryEntry, RecentOutcomes, SkipReason } from '../../api-types.js';
import { SKIP_REASONS } from '../../gate/failure-kinds.js';
import { isOfflineFailure } from '../booking/offline-rule.js';

/** This many agent requests of the active set failing in a row turn the verdict red. */
export const FAILING_STREAK = 6;

type Cause = FailureKind | SkipReason;

/** What an entry means to the streak: it breaks it, counts in it, or says nothing about the set. */
function weigh(entry: HistoryEntry): 'success' | 'failure' | 'ignored' {
  switch (entry.outcome) {
    case 'served':
      return 'success';
    // Part of an answer, then the face's error ending: the agent's turn is incomplete, as every count reads it.
    case 'partial':
    case 'all_failed':
    case 'no_candidates':
    case 'internal_error':
      return 'failure';
    // The agent left, or was refused before any model was asked (paused, a bad request).
    case 'client_aborted':
    case 'rejected':
      return 'ignored';
  }
}

/** The reasons one failed request gives. */
function causesOf(entry: HistoryEntry): Cause[] {
  if (entry.outcome === 'internal_error') return ['internal_error'];
  const kinds = entry.attempts.flatMap((attempt) => (attempt.kind === null ? [] : [attempt.kind]));
  if (kinds.length > 0) return kinds;
  return entry.skipped.map((skip) => skip.reason).filter((reason) => reason !== 'already_tried');
}

/**
 * Whether a request failed on network errors only, every one of them off this machine: a local server that
 * is not running says nothing of the connection.
 */
const onlyNetwork = (entry: HistoryEntry): boolean =>
  entry.attempts.length > 0 &&
  entry.attempts.every((attempt) => attempt.kind === 'network_error' && attempt.local !== true);

export interface RecentOutcomesInput {
  /** The history, newest first (any iterable: it is read only as far as needed). */
  newestFirst: Iterable<HistoryEntry>;
  activeSet: string;
  /** @default FAILING_STREAK */
  window?: number;
}

/**
 * The newest agent requests of the active set (requests for `fcm` or `fcm:<active set>`), read back from
 * the newest until a success or `window` failures. Probes, dashboard tests, pinned models, other sets,
 * client aborts and refused requests are passed over.
 */
export function recentOutcomes(input: RecentOutcomesInput): RecentOutcomes {
  const window = input.window ?? FAILING_STREAK;
  const failed: HistoryEntry[] = [];
  for (const entry of input.newestFirst) {
    if (failed.length >= window) break;
    if (entry.source !== 'agent' || entry.set !== input.activeSet) continue;
    const weight = weigh(entry);
    if (weight === 'success') break;
    if (weight === 'failure') failed.push(entry);
  }
  const counts = new Map<Cause, number>();
  for (const cause of failed.flatMap(causesOf)) counts.set(cause, (counts.get(cause) ?? 0) + 1);
  const causes = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([cause]) => cause);
  const spared = new Set<string>();
  for (const entry of failed) {
    if (!isOfflineFailure(entry.attempts, false)) continue;
    for (const attempt of entry.attempts) if (attempt.local !== true) spared.add(attempt.model);
  }
  return {
    window,
    failedInARow: failed.length,
    causes,
    unreachable: failed.length > 0 && failed.every(onlyNetwork),
    spared: [...spared],
    lastAt: failed[0]?.at ?? null,
  };
}

/** A cause that is a skip: no model was asked. */
const SKIPS: ReadonlySet<Cause> = new Set<Cause>(SKIP_REASONS);
const KEY_CAUSES: ReadonlySet<Cause> = new Set(['auth_error', 'payment_required', 'missing_key']);
const WAIT_CAUSES: ReadonlySet<Cause> = new Set([
  'rate_limit',
  'quota_paused',
  'quota_budget',
  'circuit_open',
]);

/** Causes that blame the requests, not the set: more than the models take, or refused as malformed. */
const REQUEST_CAUSES: ReadonlySet<Cause> = new Set<Cause>([
  'invalid_request',
  'context_length',
  'context_window',
  'over_tpm',
  'no_tool_support',
  'no_image_support',
]);

/**
 * What the verdict says about a failing streak, in plain words, with the one thing to do. Amber when every
 * cause is the requests' own (the models are well and refused them); red otherwise.
 */
export interface FailingWords {
  level: 'red' | 'amber';
  title: 'requests failing' | 'requests refused';
  reason: string;
  action: HealthAction | null;
}

const failing = (reason: string, action: HealthAction | null): FailingWords => ({
  level: 'red',
  title: 'requests failing',
  reason,
  action,
});

/**
 * The words for `failedInARow` failures in a row: "the last 6 requests failed: no provider reachable
 * (network_error) — check the connection or proxy".
 */
export function failingWords(recent: RecentOutcomes): FailingWords {
  const head = `the last ${recent.failedInARow} requests failed`;
  if (recent.unreachable) {
    const reason = `${head}: no provider reachable (network_error) — check the connection or proxy`;
    return failing(reason, 'check_network');
  }
  const top = recent.causes.slice(0, 3).join(', ');
  const first = recent.causes[0];
  if (first === 'proxy_refused') {
    const reason = `${head}: the proxy refused them (proxy_refused) — check its address and credentials in HTTPS_PROXY`;
    return failing(reason, 'check_network');
  }
  if (first === 'region_refused') {
    const reason = `${head}: ${top} — a provider does not serve this network location: use another network or a proxy (HTTPS_PROXY)`;
    return failing(reason, 'check_network');
  }
  if (first === 'internal_error')
    return failing(`${head}: a fault in the router (internal_error) — see its log`, null);
  if (first !== undefined && recent.causes.every((cause) => REQUEST_CAUSES.has(cause)))
    return {
      level: 'amber',
      title: 'requests refused',
      reason: `${head}: the models refused them (${top}) — the requests are at fault, not the models: the errors the agent got say why`,
      action: null,
    };
  const what = recent.causes.every((cause) => SKIPS.has(cause))
    ? 'no model could take them'
    : 'every model tried failed them';
  if (first !== undefined && KEY_CAUSES.has(first))
    return failing(`${head}: ${what} (${top}) — check the keys in Providers`, 'check_keys');
  if (first !== undefined && WAIT_CAUSES.has(first))
    return failing(`${head}: ${what} (${top}) — they come back by themselves`, 'wait');
  return failing(`${head}: ${what} (${top}) — see Requests for each attempt`, null);
}
