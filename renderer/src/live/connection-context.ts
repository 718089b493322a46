import { createContext, useContext } from 'react';
import type { ConnectionStatus } from './event-stream.js';

/** Provided by LiveProvider. */
export const ConnectionContext = createContext<ConnectionStatus>({ state: 'connecting' });

/** The state of the live event stream, for the header indicator and the "disconnected" banner. */
export function useConnection(): ConnectionStatus {
  return useContext(ConnectionContext);
}
