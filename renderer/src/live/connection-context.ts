import { createContext, useContext } from 'react';
import { routerToken } from '../api/token.js';
import { connectionProblem, type ConnectionProblem } from './connection-problem.js';
import type { ConnectionStatus } from './event-stream.js';

/** Provided by LiveProvider. */
export const ConnectionContext = createContext<ConnectionStatus>({ state: 'connecting' });

/** The state of the live event stream, for the header indicator and the "disconnected" banner. */
export function useConnection(): ConnectionStatus {
  return useContext(ConnectionContext);
}

/** Since when the router has not answered (the stream broke and has not opened again), or null. */
export function cutOffSince(status: ConnectionStatus): number | null {
  return status.state === 'open' ? null : (status.downSince ?? null);
}

/** {@link cutOffSince} of the live connection. */
export function useCutOffSince(): number | null {
  return cutOffSince(useConnection());
}

/** What the dashboard says about the live connection (no token, a refused one, unreachable), or null. */
export function useConnectionProblem(): ConnectionProblem | null {
  return connectionProblem(useConnection(), routerToken() !== '');
}
