/**
 * The shapes of the router's HTTP API (`/api/*`, `/health`, `/v1/models`) and of its events. Defined once,
 * imported by the server that produces them and by the dashboard and the desktop shell (types, and the few
 * lists both sides read: faces, sources, outcomes).
 * Times are epoch milliseconds or null. Nothing here ever holds prompt text, completion text, API keys or
 * upstream URLs.
 */
import type { ConfigInput, ConfigIssue } from './config/schema.js';
import type { FailureKind, RequestOutcome, SkipReason } from './gate/failure-kinds.js';

export type { FailureKind, RequestOutcome, SkipReason, ConfigInput, ConfigIssue };
export { REQUEST_OUTCOMES } from './gate/failure-kinds.js';

export type BreakerStateName = 'CLOSED' | 'DEGRADED' | 'OPEN' | 'HALF_OPEN';

/** Recent request results of one model, for the dashboard's latency and success columns. */
export interface ModelStats {
  /** Attempts dispatched to this model since start (a window of the most recent ones). */
  attempts: number;
  successes: number;
  /** Share of successes among the recent attempts, 0..1, or null without data. */
  successRate: number | null;
  p50LatencyMs: number | null;
  /** Latencies of the most recent attempts, oldest first (at most 20), for a sparkline. */
  recentLatencyMs: number[];
}

/** One model's health as `GET /api/state` reports it. */
export interface ModelStateView {
  key: string;
  provider: string;
  modelId: string;
  label: string | null;
  state: BreakerStateName;
  consecutiveFailures: number;
  tripCount: number;
  cooldownMs: number;
  /** When an OPEN breaker becomes HALF_OPEN. */
  openUntil: number | null;
  /**
   * When a DEGRADED model's next request becomes a trial at its own place in the order (no new failure
   * for the initial cooldown; until then it goes behind the CLOSED models); null in any other state.
   */
  trialDueAt: number | null;
  quotaPausedUntil: number | null;
  /** What paused it, when the model is quota-paused (not when only a free-tier budget is used up). */
  quotaPause: QuotaPauseView | null;
  /** The provider's key was refused (401/403) and has not changed or passed since. */
  authBlocked: boolean;
  /** No key is configured for a provider that needs one. */
  missingKey: boolean;
  providerEnabled: boolean;
  lastFailureKind: FailureKind | null;
  lastFailureAt: number | null;
  inActiveSet: boolean;
  /**
   * Why the next request would skip this model whatever its breaker says (the same check ranking makes),
   * or null when only the breaker decides.
   */
  blockedBy: ModelBlock | null;
  stats: ModelStats;
  /** How fast it answers, from served requests and probes (persisted). */
  latency: LatencyView;
  /** The last health probe of this model since start, or null. */
  lastProbe: ProbeView | null;
  /**
   * When the model refused (4xx) a request that another model then served, if that was within the last
   * hour: it ranks behind the other models until then, or until it serves an agent's request. Else null.
   */
  refusedServedAt: number | null;
  /**
   * When the model ignored a forced tool call that another model then made, if that was within the last
   * hour: for requests that force a tool call it ranks behind the other models until then, or until it makes
   * one. Else null.
   */
  ignoredForcedAt: number | null;
}

/** Why a model is quota-paused, for its row: what paused it and who said for how long. */
export interface QuotaPauseView {
  until: number;
  /** A rate limit (429), the provider's account out of credit (402), or a provider that does not serve this network location. */
  reason: 'rate_limit' | 'payment_required' | 'region_refused';
  /**
   * The provider said how long (a usable Retry-After or rate-limit reset header, or a 402); false: it did
   * not, and the pause is the router's own estimate.
   */
  fromProvider: boolean;
  /** The pause holds the provider's key for all its models (an account-wide limit), or this model only. */
  scope: 'model' | 'provider';
  /**
   * 1, or how many 429s in a row met the model (or the key, for a pause of the whole key) as its pauses ran
   * out: a repeat doubles the last pause (up to 15 minutes) and is the router's own length (`fromProvider`
   * false).
   */
  repeat: number;
}

/** One health probe's result. */
export interface ProbeView {
  at: number;
  ok: boolean;
  /** Why it failed (null when it passed). */
  kind: FailureKind | null;
  latencyMs: number;
}

/** A model's speed: decaying averages and a p95 over its recent served attempts; null before the first. */
export interface LatencyView {
  /** Time to the first useful byte, ms. */
  ttfbMs: number | null;
  /** The median and the 95th percentile of its recent times to first byte, ms. */
  ttfbP50Ms: number | null;
  ttfbP95Ms: number | null;
  tokensPerSec: number | null;
  samples: number;
  /** When it last served. */
  lastAt: number | null;
}

/** What keeps a model out of routing apart from its breaker. */
export type ModelBlock = Extract<
  SkipReason,
  | 'unknown_model'
  | 'model_vanished'
  | 'provider_disabled'
  | 'provider_unresolvable'
  | 'missing_key'
  | 'auth_error'
  | 'quota_paused'
  | 'quota_budget'
>;

/** The traffic light of the router, as the dashboard, the tray and the `status` command show it. */
export type HealthLevel = 'green' | 'amber' | 'red';

/** What the user can do about the current health, when anything. */
export type HealthAction =
  'resume' | 'add_key' | 'check_keys' | 'enable_provider' | 'edit_set' | 'wait' | 'check_network';

/**
 * One verdict on whether agents are being served, computed by the router from its state and from what the
 * newest agent requests got. Green only when the next agent request goes to a CLOSED model and no model of
 * the active set is out; amber when only DEGRADED, trial or quota-paused models are left, or some models of
 * the set are out, or the newest agent requests of the set were all refused as their own fault; red when
 * nothing is routable, routing is paused, or the newest agent requests of the set all failed
 * (`RecentOutcomes.window` in a row).
 */
export interface HealthVerdict {
  level: HealthLevel;
  /**
   * A few words: `routing`, `some models out`, `degraded`, `quota-paused`, `nothing routable`, `paused`,
   * `requests failing`, `requests refused`.
   */
  title: string;
  /** Why, and what to do, in one sentence: "no model has a key: add one in Providers". */
  reason: string;
  action: HealthAction | null;
  /** The model the next agent request goes to first, or null. */
  next: string | null;
  /**
   * Models of the active set, a switched-off provider's left out: all of the others, routable now, CLOSED
   * and routable, out (blocked or OPEN).
   */
  counts: { total: number; routable: number; closed: number; out: number };
  /** The soonest moment an OPEN or quota-paused model of the set comes back by itself, or null. */
  backAt: number | null;
}

/**
 * What the newest agent requests of the active set got: how many failed in a row (counting stops at
 * `window` and at the newest success), and why. Probes, dashboard tests, client aborts and refused requests
 * (paused, a bad request) are left out: they say nothing about whether the set can serve.
 */
export interface RecentOutcomes {
  /** The streak that turns the verdict red (the newest requests all failed). */
  window: number;
  /** Consecutive failed requests, newest first, up to `window`; 0 after a success. */
  failedInARow: number;
  /**
   * Why they failed, most frequent first: the failure kinds of their attempts, the skip reasons of
   * requests that found no candidate, `internal_error` for a local fault.
   */
  causes: (FailureKind | SkipReason)[];
  /**
   * Every one of them failed on network errors only, of providers off this machine (no provider was
   * reachable); a local server's network error is no sign of the connection.
   */
  unreachable: boolean;
  /** Models whose network errors in these requests were not held against them (the offline rule). */
  spared: string[];
  /** When the newest of them started, or null. */
  lastAt: number | null;
}

/** `GET /api/state`. `models` lists the active set first, in current routing order. */
export interface StateResponse {
  activeSet: string;
  sets: Record<string, string[]>;
  /** Routing paused from the tray: chat requests get 503 `router_paused`. */
  paused: boolean;
  failureThreshold: number;
  /** The verdict on the active set as of this snapshot. */
  health: HealthVerdict;
  /** What the newest agent requests of the active set got (the verdict reads it too). */
  recent: RecentOutcomes;
  models: ModelStateView[];
}

/** One dispatched upstream attempt. `kind` is null when the attempt served the request. */
export interface AttemptView {
  model: string;
  status: number | null;
  kind: FailureKind | null;
  latencyMs: number;
  breakerBefore: BreakerStateName;
  /**
   * A HALF_OPEN or DEGRADED trial, a soonest-cooldown panic try, the last-resort model, a hedge (started
   * alongside an attempt that had committed nothing after the hedge delay), or a continuation (asked to
   * finish an answer whose stream broke after content).
   */
  role: 'normal' | 'trial' | 'panic' | 'last_resort' | 'pinned' | 'hedge' | 'continuation';
  /**
   * What the router changed in the body for this attempt, e.g. `max_tokens 32000 dropped (the model refused
   * it)`, or in its answer (`tool calls read from the answer's text`).
   */
  note?: string;
  /** The fingerprint of the provider's key the attempt used (never the key); absent without a key. */
  key?: string;
  /**
   * A health probe's request to a provider off this machine that never left it (a name that did not
   * resolve, a connection refused): it says nothing of the model, which it did not count against. Absent
   * otherwise.
   */
  unreached?: true;
  /**
   * The provider is on this machine (its base URL on loopback: a local model server): the offline rule
   * leaves its attempts out, as its network errors are its server's. Absent otherwise.
   */
  local?: true;
}

export interface SkipView {
  model: string;
  reason: SkipReason;
  /** For a request that does not fit: the window or tokens-per-minute limit it is over, in tokens. */
  limit?: number;
  /** For `quota_budget`: when the key's minute has room for it again (epoch ms). */
  until?: number;
}

export interface UsageView {
  promptTokens: number | null;
  completionTokens: number | null;
  /** The upstream reported no usage: the prompt's tokens are estimated from its length. */
  estimated?: boolean;
}

/** Who sent a request: an agent, a dashboard Test button (`x-fcm-source: test`), or the router's probe. */
export const REQUEST_SOURCES = ['agent', 'test', 'probe'] as const;
export type RequestSource = (typeof REQUEST_SOURCES)[number];

/**
 * The agent protocols the router speaks, each at its path: the routes, the history's schema, the Requests
 * view's filter and `/metrics` all read this one list.
 */
export const FACE_ROUTES = [
  { face: 'chat', path: '/v1/chat/completions', protocol: 'OpenAI Chat Completions' },
  { face: 'messages', path: '/v1/messages', protocol: 'Anthropic Messages' },
  { face: 'responses', path: '/v1/responses', protocol: 'OpenAI Responses' },
] as const;

/** The API face a request came in through: Chat Completions, Anthropic Messages or Responses. */
export type ApiFace = (typeof FACE_ROUTES)[number]['face'];

/** The faces by name, in {@link FACE_ROUTES}' order. */
export const API_FACES = FACE_ROUTES.map((route) => route.face) as [ApiFace, ...ApiFace[]];

/** One request's decision trace, as history keeps it. */
export interface HistoryEntry {
  /**
   * The entry's number in this router's history, one more than the entry recorded before it (absent in
   * entries written before it existed): what tells entries apart, as agents may send one request id twice.
   */
  seq?: number;
  requestId: string;
  at: number;
  modelRequested: string;
  set: string | null;
  pinned: string | null;
  servedModel: string | null;
  outcome: RequestOutcome;
  stream: boolean;
  wallMs: number;
  attempts: AttemptView[];
  skipped: SkipView[];
  /** The agent's User-Agent product token, e.g. `opencode/1.18.33`. */
  client: string | null;
  /** The HTTP status the client received. */
  clientStatus: number;
  lastResortUsed: boolean;
  usage: UsageView | null;
  /** Who sent it: an agent, the dashboard's Test buttons, or a health probe (`agent` in older entries). */
  source: RequestSource;
  /** The protocol face it came in on (`chat` in older entries). */
  api: ApiFace;
  /** Its estimated size in tokens, input and asked-for output (absent in older entries). */
  size?: number;
  /**
   * The agent's conversation, as a short hash of its session id or, for an agent that names none, of how the
   * conversation begins, keyed with the router's own secret (never the id or the words); absent without one.
   */
  session?: string;
  /** The model its conversation was on, tried first ahead of the set's order; absent when none was. */
  sticky?: string;
  /**
   * The models of the set asked last, behind the others, because each refused a request another model
   * served within the hour; absent when none was.
   */
  behind?: string[];
  /**
   * Why the agent got an error answer instead of one from a model: the error's code and, for a request
   * refused for one of its fields, that field's path (never its value); absent when a model answered.
   */
  refusal?: RefusalView;
}

/** The code of an error answer, and the request field at fault when there was one. */
export interface RefusalView {
  code: string;
  param?: string;
}

/**
 * Statistics of the retained history. Everything but `retained` and `tests` counts agent requests only:
 * dashboard tests and probes are kept apart.
 */
export interface HistoryStats {
  retained: number;
  /** Retained entries sent by a dashboard test or a probe. */
  tests: number;
  /** Of `tests`, those the router's probes sent. */
  probes: number;
  served: number;
  partial: number;
  allFailed: number;
  noCandidates: number;
  clientAborted: number;
  rejected: number;
  /** Share of served requests that needed more than one attempt. */
  failoverRate: number;
  /** Served over the requests the router tried to serve (client aborts and refusals left out). */
  successRate: number;
  avgAttempts: number;
  avgWallMs: number;
  /**
   * Since local midnight: served at the first attempt, served after failover, failed, refused (paused,
   * an unknown model name: answered without asking a model), tokens used.
   */
  today: {
    servedFirstTry: number;
    servedAfterFailover: number;
    failed: number;
    refused: number;
    promptTokens: number;
    completionTokens: number;
  };
}

/** `GET /api/history?limit=N`, newest first. */
export interface HistoryResponse {
  entries: HistoryEntry[];
  stats: HistoryStats;
}

/** `GET /v1/models`: the names agents may send, with the context window to plan for where one is known. */
/** `POST /api/models/reset`: what the model was in before, and what the reset lifted. */
export interface ModelResetResponse {
  ok: true;
  /** The breaker's state before it was closed (CLOSED: nothing to close). */
  breakerBefore: BreakerStateName;
  /** Whether a quota pause of the model (on any key) was still running and is now lifted. */
  pauseLifted: boolean;
}

export interface ModelsListResponse {
  object: 'list';
  data: {
    id: string;
    object: 'model';
    created: number;
    owned_by: string;
    context_window?: number;
    context_length?: number;
    max_model_len?: number;
  }[];
}

/** `GET /health`. */
export interface HealthResponse {
  ok: true;
  name: 'fcm-router';
  version: string;
  uptimeMs: number;
  pid: number;
}

export type KeyStatus = 'set' | 'env' | 'missing' | 'invalid' | 'not_required';

export interface ProviderModelView {
  key: string;
  modelId: string;
  label: string | null;
  tier: string | null;
  sweScore: number | null;
  context: string | null;
  /** The provider's own list no longer holds it (model discovery): skipped as `model_vanished`. */
  vanished: boolean;
}

/** `POST /api/providers/discover`: what the provider's model list said. */
export interface DiscoveryResponse {
  ok: true;
  provider: string;
  listed: number;
  /** Catalogue models the provider no longer lists (skipped from now on). */
  vanished: string[];
  /** Model ids it lists that the router has no entry for. */
  discovered: string[];
}

/** Where one key of a provider stands: usable, paused (its limit or credit), or refused by the provider. */
export type KeyState = 'usable' | 'paused' | 'invalid';

/** One key of a provider, named by its fingerprint only (the key itself never leaves the router). */
export interface KeyView {
  fingerprint: string;
  /** The config file (`config`), or the name of the environment variable. */
  source: string;
  state: KeyState;
  /** When a paused key is back. */
  pausedUntil: number | null;
  /** How many of the provider's models wait on this key (a per-model limit). */
  pausedModels: number;
  /** Its use of each free-tier budget it counts against, most used first; empty without limits. */
  budgets: KeyBudgetView[];
}

/** Requests and tokens per minute and per day; null: no limit of that kind. */
export interface LimitsView {
  rpm: number | null;
  rpd: number | null;
  tpm: number | null;
  tpd: number | null;
}

/**
 * One key's use of one free-tier budget now: today's (the provider's day) and the last minute's, against the
 * limits. The same shape in a provider's key list (`GET /api/providers`) and in `GET /api/usage`.
 */
export interface KeyBudgetView {
  provider: string;
  /** The key's fingerprint (never the key). */
  key: string;
  /** The model whose budget it is; null when the provider counts per key (every model shares one). */
  model: string | null;
  dayRequests: number;
  dayTokens: number;
  minuteRequests: number;
  minuteTokens: number;
  limits: LimitsView;
}

/** A provider's health probes: the effective settings and today's spending. */
export interface ProviderProbeView {
  enabled: boolean;
  /** At most this many probes a day. */
  dailyBudget: number;
  /** Idle models are probed after this long; null: only trials are probed. */
  idleIntervalMs: number | null;
  /** Probes spent in the provider's current day (the dashboard's "probe now" included). */
  spentToday: number;
}

/** One provider in `GET /api/providers`. */
export interface ProviderView {
  id: string;
  name: string;
  signupUrl: string | null;
  keyStatus: KeyStatus;
  /** Where the key comes from: the config file, or the name of the environment variable. */
  keySource: string | null;
  enabled: boolean;
  /** Not in the built-in catalogue: added in the config. */
  custom: boolean;
  /** The base URL cannot be built (e.g. Cloudflare without CLOUDFLARE_ACCOUNT_ID). */
  unresolvable: boolean;
  /** Every key, in the order they are tried. */
  keys: KeyView[];
  /** When its model list was last fetched (model discovery), or null. */
  discoveredAt: number | null;
  /** Model ids its list holds that the router has no entry for: offered in "Add a model". */
  discoveredNew: string[];
  models: ProviderModelView[];
  probe: ProviderProbeView;
  /** The catalogue's free-tier limits for every model of the provider, and the config's override of them. */
  limits: { published: LimitsView; override: Partial<LimitsView> };
}

export interface ProvidersResponse {
  providers: ProviderView[];
  /**
   * The revision of `config.json` the providers' settings were read from: send it as `If-Match` with
   * `POST /api/providers/settings`, so a save based on settings the file has changed since is refused.
   */
  revision: string;
}

/** One model's and key's usage on one day. */
export interface UsageEntryView {
  model: string;
  /** The key's fingerprint (empty for a provider used without a key). */
  key: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Of these tokens, how many are estimated from the request's length (the upstream reported none). */
  estimatedTokens: number;
}

/** One local day's usage. */
export interface UsageDayView {
  /** `YYYY-MM-DD`, the user's calendar day (the dashboard's "today"; budgets count each provider's own day). */
  day: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  estimatedTokens: number;
  entries: UsageEntryView[];
}

/** One model today: its served requests and tokens over all keys, and the share of its daily budget used. */
export interface ModelUsageToday {
  model: string;
  requests: number;
  tokens: number;
  estimatedTokens: number;
  /** The most used daily free-tier budget (requests or tokens) over the provider's keys, 0–1; null without one. */
  budgetShare: number | null;
}

/**
 * `GET /api/usage`: every kept day, newest first, today's usage per model, and each key's daily budgets
 * (for the models of the sets and those used today, where a day limit is known; most used first).
 */
export interface UsageResponse {
  /** How many days the router keeps (today included): the span the dashboard's chart covers. */
  keptDays: number;
  days: UsageDayView[];
  today: ModelUsageToday[];
  budgets: KeyBudgetView[];
}

/** The value `GET /api/config` shows in place of a secret; sending it back keeps the secret as it is. */
export const MASKED_SECRET = '********';

/** `GET /api/config`: the config file as written (secrets masked), the effective values and the defaults. */
export interface ConfigResponse {
  config: ConfigInput;
  effective: ConfigInput;
  defaults: ConfigInput;
  path: string;
  /**
   * The revision of the file this config was read from or written as. Send it back as `If-Match` with a
   * `PUT /api/config`: a save based on an older revision gets 409 `config_changed_on_disk`.
   */
  revision: string;
  /** The file holds an edit that is not valid: the router runs on the last good config meanwhile. */
  fileProblem: ConfigFileProblem | null;
}

/** An invalid `config.json` on disk: which file and what is wrong (never its content). */
export interface ConfigFileProblem {
  path: string;
  issues: ConfigIssue[];
}

/** What the dashboard's editing calls answer once the change is saved. */
export interface EditResponse {
  ok: true;
  /** The file's revision after the change (for the next `If-Match`). */
  revision: string;
}

/**
 * `PUT /api/config` success: what changed, as dotted paths. `keysDropped` names the providers whose stored
 * key was removed because the same save changed their `baseUrl` or added or changed their `headers` while
 * sending the key back masked (a key is meant for one address); sending a new key with the change keeps
 * it. Empty when no key was dropped; always sent by the router (optional for clients of older routers).
 */
export interface ConfigSaveResponse {
  ok: true;
  changed: string[];
  config: ConfigInput;
  keysDropped?: string[];
  /** The file's revision after the save (for the next `If-Match`). */
  revision?: string;
}

/**
 * `POST /api/config/check`: whether a whole config would be saved by `PUT /api/config` now, and if not,
 * every problem by its JSON path, in the same words a save answers with. Nothing is saved.
 */
export interface ConfigCheckResponse {
  valid: boolean;
  issues: ConfigIssue[];
  /**
   * Providers whose stored keys a save would drop: the config sends them to another address (`baseUrl`) or
   * with other headers while keeping their keys masked, and a key is never carried to a new address.
   */
  keysDropped: string[];
}

/**
 * `POST /api/config/import` success: one line per decision (keys by fingerprint only), whether the import
 * changes anything, and whether it was saved and applied (never on a dry run).
 */
export interface ConfigImportResponse {
  ok: true;
  lines: string[];
  changed: boolean;
  written: boolean;
  path: string;
}

/**
 * `config.json` was changed by someone else than the router: `applied` (valid, now in use; `changed`
 * names the paths), `invalid` (kept on disk as it is, the router runs on the last good config) or
 * `removed` (the router keeps its config and writes the file again on the next save).
 */
export type ConfigFileEvent =
  | { type: 'config-file'; status: 'applied'; path: string; changed: string[] }
  | { type: 'config-file'; status: 'invalid'; path: string; issues: ConfigIssue[] }
  | { type: 'config-file'; status: 'removed'; path: string };

/** Every error the router answers with, OpenAI-shaped. `issues` comes with config validation errors. */
export interface ErrorResponse {
  error: {
    message: string;
    type: string;
    code: string | null;
    param?: string | null;
    issues?: ConfigIssue[];
  };
}

/** Events on `GET /api/events` (SSE `event:` name = `type`, `data:` = the JSON of the object). */
export type RouterEvent =
  | { type: 'request'; entry: HistoryEntry }
  | { type: 'breaker'; model: ModelStateView }
  | { type: 'config'; activeSet: string; sets: Record<string, string[]>; changed: string[] }
  | { type: 'router'; paused: boolean }
  | ConfigFileEvent;

export type RouterEventType = RouterEvent['type'];

/** Where one agent's config stands for `GET /api/setup`: pointed at this router, not yet, or unreadable. */
export type SetupState = 'set' | 'not_set' | 'unreadable';

/** One agent the dashboard can set up (`fcm-router setup <id>`), and its file on this machine. */
export interface SetupAgentView {
  id: string;
  name: string;
  file: string;
  state: SetupState;
  /** Why the file cannot be edited (not valid JSON, say), for `unreadable`; else null. */
  problem: string | null;
}

/** `GET /api/setup`. */
export interface SetupAgentsResponse {
  agents: SetupAgentView[];
  /** This router is the demo (`--demo`): set up, an agent points at the demo's port and its set's window. */
  demo: boolean;
}

/** `POST /api/setup/preview`: what setting up (or undoing) would change, before anything is written. */
export interface SetupPreviewResponse {
  agent: string;
  undo: boolean;
  file: string;
  /** The change as a diff; empty when there is nothing to do. */
  diff: string;
  /** Why there is nothing to do, or null. */
  nothing: string | null;
  /** Send it back to `POST /api/setup/apply`: only this change is made, not one the file moved on to. */
  plan: string;
}

/** `POST /api/setup/apply` success: what was done, in a sentence. */
export interface SetupApplyResponse {
  ok: true;
  message: string;
}
