import { useQuery } from '@tanstack/react-query';
import { api } from './endpoints.js';

/** Query keys of the router's resources; the live event stream patches and invalidates these. */
export const queryKeys = {
  health: ['health'],
  state: ['state'],
  history: ['history'],
  config: ['config'],
  providers: ['providers'],
  usage: ['usage'],
  models: ['models'],
} as const;

export type ResourceName = keyof typeof queryKeys;

/** Where LiveProvider keeps the last `config-file` event: client state, never fetched. */
export const CONFIG_FILE_EVENT_KEY = ['config-file-event'] as const;

// One hook per resource. They never refetch on a timer: LiveProvider patches and invalidates them on events.

/** `GET /health`: version and uptime. */
export const useHealth = () => useQuery({ queryKey: queryKeys.health, queryFn: api.health });
/** `GET /api/state`: models in routing order, sets, pause. */
export const useRouterState = () => useQuery({ queryKey: queryKeys.state, queryFn: api.state });
/** `GET /api/history`: the retained requests, newest first, with statistics. */
export const useHistory = () => useQuery({ queryKey: queryKeys.history, queryFn: () => api.history() });
/** `GET /api/config`: the config as written, effective and default (secrets masked). */
export const useConfig = () => useQuery({ queryKey: queryKeys.config, queryFn: api.config });
/** `GET /api/providers`: the catalogue with key status. */
export const useProviders = () => useQuery({ queryKey: queryKeys.providers, queryFn: api.providers });

export const useUsage = () => useQuery({ queryKey: queryKeys.usage, queryFn: api.usage });
/** `GET /v1/models`: what agents see, with each name's context window. */
export const useAgentModels = () => useQuery({ queryKey: queryKeys.models, queryFn: api.models });
