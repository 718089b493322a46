import type {
  ConfigCheckResponse,
  ConfigInput,
  ConfigResponse,
  ConfigSaveResponse,
  HealthResponse,
  HistoryResponse,
  ModelsListResponse,
  ProbeView,
  ProvidersResponse,
  UsageResponse,
  DiscoveryResponse,
  EditResponse,
  SetupAgentsResponse,
  SetupApplyResponse,
  SetupPreviewResponse,
  StateResponse,
} from '../../../router/api-types.js';
import { apiGet, apiSend } from './client.js';

/** The most history the router keeps and the dashboard loads. */
export const HISTORY_LIMIT = 500;

type Ok = { ok: true };

/** How a set orders its healthy models. */
export type SetOrder = 'priority' | 'fastest';

/** `POST /api/providers/add`. */
export interface NewProviderBody {
  id: string;
  name?: string;
  baseUrl: string;
  apiKeys: string[];
  models: string[];
  headers?: Record<string, string>;
}

/** `POST /api/providers/settings`: values as typed (the router's schema judges them). */
export interface ProviderSettingsBody {
  probe?: Record<string, unknown> | null;
  limits?: Record<string, unknown> | null;
}

/** Every router endpoint the dashboard uses, typed by the shapes in router/api-types.ts. */
export const api = {
  health: () => apiGet<HealthResponse>('/health'),
  state: () => apiGet<StateResponse>('/api/state'),
  history: (limit = HISTORY_LIMIT) => apiGet<HistoryResponse>(`/api/history?limit=${limit}`),
  config: () => apiGet<ConfigResponse>('/api/config'),
  providers: () => apiGet<ProvidersResponse>('/api/providers'),
  usage: () => apiGet<UsageResponse>('/api/usage'),
  /** The names agents may send, with each one's context window. */
  models: () => apiGet<ModelsListResponse>('/v1/models'),
  /** Fetches a provider's own model list (model discovery). */
  discoverModels: (provider: string) =>
    apiSend<DiscoveryResponse>('POST', '/api/providers/discover', { provider }),

  /** Saves the whole config; `revision` is the one it was read at (a stale one gets 409). */
  saveConfig: (config: ConfigInput, revision: string) =>
    apiSend<ConfigSaveResponse>('PUT', '/api/config', config, { 'if-match': `"${revision}"` }),
  /** Whether a whole config would be saved, and every problem by JSON path; nothing is saved. */
  checkConfig: (config: unknown) => apiSend<ConfigCheckResponse>('POST', '/api/config/check', config),
  resetModel: (model: string) => apiSend<Ok>('POST', '/api/models/reset', { model }),
  /** A health probe of one model now; its result. */
  probeModel: (model: string) => apiSend<ProbeView>('POST', '/api/models/probe', { model }),
  /** Write-only: the key is never read back. An empty string removes it. */
  setProviderKey: (provider: string, apiKey: string) =>
    apiSend<Ok>('POST', '/api/providers/key', { provider, apiKey }),
  /** Adds a provider the catalogue does not know; the router's schema judges every field. */
  addProvider: (provider: NewProviderBody) => apiSend<Ok>('POST', '/api/providers/add', provider),
  /** Write-only: adds a key after the provider's others; the answer names it by fingerprint only. */
  addProviderKey: (provider: string, apiKey: string) =>
    apiSend<Ok & { fingerprint: string }>('POST', '/api/providers/keys/add', { provider, apiKey }),
  /** Removes one config key; the router holds it for `undoForMs` so the removal can be undone. */
  removeProviderKey: (provider: string, fingerprint: string) =>
    apiSend<Ok & { undoForMs: number }>('POST', '/api/providers/keys/remove', { provider, fingerprint }),
  restoreProviderKey: (provider: string, fingerprint: string) =>
    apiSend<Ok>('POST', '/api/providers/keys/restore', { provider, fingerprint }),
  /**
   * A provider's probes and limits override; null puts one back to its default. `revision`: the one of
   * `GET /api/providers` the values were read at (a stale one gets 409).
   */
  saveProviderSettings: (provider: string, change: ProviderSettingsBody, revision: string) =>
    apiSend<EditResponse>(
      'POST',
      '/api/providers/settings',
      { provider, ...change },
      {
        'if-match': `"${revision}"`,
      },
    ),
  deleteSet: (set: string) => apiSend<Ok>('POST', '/api/sets/delete', { set }),
  renameSet: (set: string, to: string) => apiSend<Ok>('POST', '/api/sets/rename', { set, to }),
  setOrder: (set: string, order: SetOrder) => apiSend<Ok>('POST', '/api/sets/order', { set, order }),
  saveSet: (name: string, models: string[]) =>
    apiSend<Ok>('PUT', `/api/sets/${encodeURIComponent(name)}`, { models }),
  activateSet: (set: string) => apiSend<Ok>('POST', '/api/sets/active', { set }),
  setPaused: (paused: boolean) => apiSend<Ok>('POST', '/api/pause', { paused }),
  /** Each agent `fcm-router setup` knows, with its file on the router's machine and whether it is set up. */
  setupAgents: () => apiGet<SetupAgentsResponse>('/api/setup'),
  /** What setting an agent up (or undoing it) would change; nothing is written. */
  previewSetup: (agent: string, undo: boolean) =>
    apiSend<SetupPreviewResponse>('POST', '/api/setup/preview', { agent, undo }),
  /** Makes the previewed change, and only it (409 `setup_changed` when the file moved on since). */
  applySetup: (preview: SetupPreviewResponse) =>
    apiSend<SetupApplyResponse>('POST', '/api/setup/apply', {
      agent: preview.agent,
      undo: preview.undo,
      plan: preview.plan,
    }),
};
