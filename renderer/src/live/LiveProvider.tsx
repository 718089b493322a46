import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { HistoryResponse, RouterEvent, StateResponse } from '../../../router/api-types.js';
import { api, HISTORY_LIMIT } from '../api/endpoints.js';
import { CONFIG_FILE_EVENT_KEY, queryKeys, type ResourceName } from '../api/queries.js';
import { refreshRouterToken } from '../api/token.js';
import { applyBreaker, applyConfig, applyRequest } from './apply-event.js';
import { coalesce } from './coalesce.js';
import { ConnectionContext } from './connection-context.js';
import { causeOfRead, type ConnectionCause } from './connection-problem.js';
import { openEventStream, type ConnectionStatus } from './event-stream.js';

/** One cheap read of the API, for why the event stream failed: a refused token shows in its answer. */
async function probeConnection(): Promise<ConnectionCause> {
  try {
    await api.history(1);
    return 'unreachable';
  } catch (error) {
    return causeOfRead(error);
  }
}

/** The history's entries are patched in from events; only the server's statistics need fetching, not 500 entries. */
async function refreshHistoryStats(client: QueryClient): Promise<void> {
  const fresh = await api.history(1).catch(() => null);
  if (fresh)
    client.setQueryData<HistoryResponse>(queryKeys.history, (h) => (h ? { ...h, stats: fresh.stats } : h));
}

/**
 * Owns the dashboard's one EventSource. Events patch the cached resources at once; the resources whose
 * server-side statistics also moved (p50, success rates, routing order) are refetched, coalesced, after
 * the burst. Nothing polls: without events nothing is fetched.
 */
export function LiveProvider({ children, url = '/api/events' }: { children: ReactNode; url?: string }) {
  const client = useQueryClient();
  const [status, setStatus] = useState<ConnectionStatus>({ state: 'connecting' });

  useEffect(() => {
    const refresh = coalesce<ResourceName | 'historyStats'>(
      (names) => {
        for (const name of names) {
          if (name === 'historyStats') void refreshHistoryStats(client);
          else void client.invalidateQueries({ queryKey: queryKeys[name] });
        }
      },
      300,
      2000,
    );
    const onEvent = (event: RouterEvent): void => {
      switch (event.type) {
        case 'request':
          client.setQueryData<HistoryResponse>(queryKeys.history, (h) =>
            h ? applyRequest(h, event.entry, HISTORY_LIMIT) : h,
          );
          refresh.add('state');
          refresh.add('historyStats');
          refresh.add('usage');
          break;
        case 'breaker':
          client.setQueryData<StateResponse>(queryKeys.state, (s) => (s ? applyBreaker(s, event.model) : s));
          refresh.add('state');
          refresh.add('providers');
          break;
        case 'config':
          client.setQueryData<StateResponse>(queryKeys.state, (s) =>
            s ? applyConfig(s, event.activeSet, event.sets) : s,
          );
          refresh.add('state');
          refresh.add('config');
          refresh.add('providers');
          refresh.add('models');
          break;
        case 'config-file':
          // The banner shows it; the config (with its problem, if any) and what depends on it are reloaded.
          client.setQueryData(CONFIG_FILE_EVENT_KEY, event);
          refresh.add('config');
          refresh.add('state');
          refresh.add('providers');
          break;
        case 'router':
          client.setQueryData<StateResponse>(queryKeys.state, (s) =>
            s ? { ...s, paused: event.paused } : s,
          );
          // The health verdict is the router's: pausing turns it red, resuming gives it back.
          refresh.add('state');
          break;
      }
    };
    const stop = openEventStream({
      url,
      onEvent,
      onStatus: setStatus,
      probe: probeConnection,
      // Events were missed while disconnected, or the daemon restarted with a new token: reload everything.
      onResync: () => {
        void refreshRouterToken().then(() => client.invalidateQueries());
      },
    });
    return () => {
      stop();
      refresh.cancel();
    };
  }, [client, url]);

  return <ConnectionContext value={status}>{children}</ConnectionContext>;
}
