/**
 * The one health verdict of the router: the Overview's status, the tray's colour and tooltip and the
 * `status` command all show this, so they never disagree. Pure: a snapshot of the active set, what the
 * newest agent requests got, and a time.
 */
import type { HealthAction, HealthVerdict, ModelStateView, RecentOutcomes } from '../../api-types.js';
import { rateLimitsHold, type ModelOut } from '../answer/models-out.js';
import { breakerStanding, type BreakerStanding } from './breaker-standing.js';
import { failingWords } from './recent-outcomes.js';

/** What a model of the active set is to the next request. */
export type ModelStanding =
  BreakerStanding | 'quota_paused' | 'missing_key' | 'key_refused' | 'off' | 'unreachable';

type Model = Pick<
  ModelStateView,
  'key' | 'state' | 'openUntil' | 'trialDueAt' | 'quotaPausedUntil' | 'blockedBy' | 'inActiveSet'
> &
  Partial<Pick<ModelStateView, 'quotaPause'>>;

export interface VerdictInput {
  paused: boolean;
  activeSet: string;
  /** The active set's models in routing order (other models are ignored). */
  models: readonly Model[];
  /** What the newest agent requests of the set got; absent from an older router's snapshot. */
  recent?: RecentOutcomes;
}

/**
 * What a model is to the next request at `now`: the router's own reason for skipping it (`blockedBy`: a
 * provider-level block hides the breaker, a quota pause or spent budget hides it until the pause ends),
 * else its breaker's standing. The health verdict and the tray both read a model this way.
 */
export function modelStanding(model: Model, now: number): ModelStanding {
  switch (model.blockedBy) {
    case 'provider_disabled':
      return 'off';
    case 'missing_key':
      return 'missing_key';
    case 'auth_error':
      return 'key_refused';
    case 'unknown_model':
    case 'model_vanished':
    case 'provider_unresolvable':
      return 'unreachable';
    case 'quota_paused':
    case 'quota_budget':
      return model.quotaPausedUntil !== null && model.quotaPausedUntil <= now
        ? breakerStanding(model, now)
        : 'quota_paused';
    case null:
      return breakerStanding(model, now);
  }
}

const ROUTABLE: ReadonlySet<ModelStanding> = new Set(['closed', 'degraded', 'trial']);

/** How each kind of "out" is named in a summary, singular. */
const OUT_WORDS: Partial<Record<ModelStanding, string>> = {
  open: 'OPEN',
  quota_paused: 'quota-paused',
  missing_key: 'without a key',
  key_refused: 'key refused',
  unreachable: 'unknown or removed',
};

/** `2 OPEN, 1 without a key` in a fixed order. */
function summarise(counts: ReadonlyMap<ModelStanding, number>): string {
  return (['open', 'quota_paused', 'key_refused', 'missing_key', 'unreachable'] as const)
    .filter((s) => (counts.get(s) ?? 0) > 0)
    .map((s) => `${counts.get(s)} ${OUT_WORDS[s]}`)
    .join(', ');
}

/** The most useful thing to do about the models that are out, in the order a user can fix them. */
function fixFor(counts: ReadonlyMap<ModelStanding, number>): { action: HealthAction; words: string } | null {
  if (counts.has('missing_key')) return { action: 'add_key', words: 'add keys in Providers' };
  if (counts.has('key_refused'))
    return { action: 'check_keys', words: 'replace the refused keys in Providers' };
  if (counts.has('unreachable')) return { action: 'edit_set', words: 'check the set in Models' };
  if (counts.has('open') || counts.has('quota_paused'))
    return { action: 'wait', words: 'they come back by themselves' };
  return null;
}

/** Standings no wait ends: each lasts until the user acts (a provider on, a key added or replaced, the set). */
const LASTING: ReadonlySet<ModelStanding> = new Set(['off', 'missing_key', 'key_refused', 'unreachable']);

/** When a model out is back by itself: its cooldown's or pause's end; null when routable or out for good. */
function backAtOf(model: Model, standing: ModelStanding): number | null {
  if (standing === 'open') return model.openUntil;
  return standing === 'quota_paused' ? model.quotaPausedUntil : null;
}

/** A model of the set as the router's answer weighs it when nothing is routable (`rateLimitsHold`). */
function standingOut(model: Model, standing: ModelStanding): ModelOut {
  return {
    reason: standing,
    rateLimited: standing === 'quota_paused' && heldByRateLimit(model),
    backAt: backAtOf(model, standing),
    forGood: LASTING.has(standing),
  };
}

/** The active set graded at `now`: how many models are routable, CLOSED or out, and when the first is back. */
function tally(input: VerdictInput, now: number) {
  const set = input.models.filter((m) => m.inActiveSet);
  const graded = set.map((model) => ({ model, standing: modelStanding(model, now) }));
  const counts = new Map<ModelStanding, number>();
  for (const { standing } of graded) counts.set(standing, (counts.get(standing) ?? 0) + 1);
  const considered = graded.filter((g) => g.standing !== 'off');
  const routable = considered.filter((g) => ROUTABLE.has(g.standing));
  const closed = routable.filter((g) => g.standing === 'closed').length;
  const outs = graded.map(({ model, standing }) => standingOut(model, standing));
  let backAt: number | null = null;
  for (const { backAt: at } of outs)
    if (at !== null && at > now && (backAt === null || at < backAt)) backAt = at;
  const out = considered.length - routable.length;
  return { set, counts, considered, routable, closed, out, backAt, outs };
}

/**
 * Whether a quota-paused model is held by a rate limit (a 429's pause, or a free-tier budget, which has no
 * pause): not by a 402's pause or a refusal of the network's location, which a wait does not mend.
 */
function heldByRateLimit(model: Model): boolean {
  return model.quotaPause == null || model.quotaPause.reason === 'rate_limit';
}

type Verdict = (
  level: HealthVerdict['level'],
  title: string,
  reason: string,
  action: HealthAction | null,
) => HealthVerdict;

/** What is out of the active set when nothing is routable, as `nothingRoutable` reads it. */
interface Outs {
  counts: ReadonlyMap<ModelStanding, number>;
  /** Models of the set whose provider is on. */
  considered: number;
  /** Each model of the set as the router's answer weighs it. */
  outs: readonly ModelOut[];
  summary: string;
  fix: ReturnType<typeof fixFor>;
}

/** The verdict when no model of the set can take the next request. */
function nothingRoutable(verdict: Verdict, outs: Outs): HealthVerdict {
  const { counts, considered, summary, fix } = outs;
  if ((counts.get('missing_key') ?? 0) === considered)
    return verdict('red', 'nothing routable', 'no model has a key: add one in Providers', 'add_key');
  if ((counts.get('key_refused') ?? 0) + (counts.get('missing_key') ?? 0) === considered) {
    const reason = 'every provider refused its key (401/403): replace it in Providers';
    return verdict('red', 'nothing routable', reason, 'check_keys');
  }
  if (counts.has('quota_paused') && !counts.has('open')) return pausedOut(verdict, outs);
  const reason = `no model can take a request (${summary})${fix ? `: ${fix.words}` : ''}`;
  return verdict('red', 'nothing routable', reason, fix?.action ?? null);
}

/**
 * Nothing routable, some models quota-paused and none OPEN: agents are refused until the first pause ends
 * (`backAt`), with 429 when rate limits are what hold the set (some models held by a rate limit or a
 * free-tier budget, the others too or out for good: a key missing or refused, a provider off), and 503
 * `all_models_unavailable` when a pause that ends by itself holds one (a 402's, a refusal of the network's
 * location), as the router answers them (`rateLimitsHold`). Waiting is enough, but a fix the user can make
 * is said.
 */
function pausedOut(verdict: Verdict, outs: Outs): HealthVerdict {
  const { counts, considered, summary, fix } = outs;
  const paused = counts.get('quota_paused') ?? 0;
  const status = rateLimitsHold(outs.outs) ? '429' : '503';
  const what = paused === considered ? 'every usable model is quota-paused' : 'no model can take a request';
  const todo = fix && fix.action !== 'wait' ? `; ${fix.words}, or wait` : '';
  const reason = `${what} (${summary}): agents get ${status} until a pause ends${todo}`;
  return verdict('amber', 'quota-paused', reason, fix?.action ?? 'wait');
}

/**
 * The verdict on the active set at `now`. Green only when the next agent request goes to a CLOSED model
 * and no model of the set is out; amber when only DEGRADED, trial or quota-paused models are left, or
 * some models are out; red when nothing is routable or routing is paused. Models of a switched-off
 * provider are left out: turning a provider off is a choice, not a fault.
 *
 * What agents got outranks what the breakers say: when the newest `recent.window` agent requests of the
 * set all failed, the verdict is red and says why (unless routing is paused, or the set's own state already
 * says red more precisely, e.g. no keys); amber when the models refused them as the requests' fault (too
 * large, malformed), which says nothing against the models; one success clears it.
 */
export function healthVerdict(input: VerdictInput, now: number): HealthVerdict {
  const verdict = stateVerdict(input, now);
  const recent = input.recent;
  if (!recent || recent.failedInARow < recent.window || input.paused) return verdict;
  if (verdict.level === 'red' && !recent.unreachable) return verdict;
  return { ...verdict, ...failingWords(recent) };
}

/** The verdict from the set's state alone: breakers, keys, pauses. */
function stateVerdict(input: VerdictInput, now: number): HealthVerdict {
  const { set, counts, considered, routable, closed, out, backAt, outs } = tally(input, now);
  const next = routable[0] ?? null;
  const base = {
    next: next?.model.key ?? null,
    // The models that count: a switched-off provider's are left out of the total as of the rest.
    counts: { total: considered.length, routable: routable.length, closed, out },
    backAt,
  };
  const verdict: Verdict = (level, title, reason, action) => ({ level, title, reason, action, ...base });

  // While paused nothing comes back on its own: a quota pause that ends changes nothing until the resume.
  if (input.paused)
    return {
      ...verdict('red', 'paused', 'routing is paused, agents get 503: resume it', 'resume'),
      backAt: null,
    };
  if (set.length === 0) {
    const reason = `set "${input.activeSet}" is empty: add models in Models`;
    return verdict('red', 'nothing routable', reason, 'edit_set');
  }
  if (considered.length === 0) {
    const reason = `every provider of set "${input.activeSet}" is switched off: enable one in Providers`;
    return verdict('red', 'nothing routable', reason, 'enable_provider');
  }
  const summary = summarise(counts);
  const fix = fixFor(counts);
  if (!next)
    return nothingRoutable(verdict, {
      counts,
      considered: considered.length,
      outs,
      summary,
      fix,
    });
  if (next.standing !== 'closed') {
    const what = next.standing === 'trial' ? 'a trial of' : 'DEGRADED';
    const behind = closed > 0 ? `; ${closed} CLOSED behind it` : '';
    const reason = `next request goes to ${what} ${next.model.key}${behind}${summary ? ` (${summary})` : ''}`;
    return verdict('amber', next.standing === 'trial' ? 'on trial' : 'degraded', reason, fix?.action ?? null);
  }
  if (out > 0) {
    // Waiting is the default and `backAt` says until when; only a fix the user can make is spelled out.
    const todo = fix && fix.action !== 'wait' ? `: ${fix.words}` : '';
    const reason = `${out} of ${considered.length} models out (${summary})${todo}; next request goes to ${next.model.key}`;
    return verdict('amber', 'some models out', reason, fix?.action ?? null);
  }
  return verdict('green', 'routing', `next request goes to ${next.model.key}`, null);
}
