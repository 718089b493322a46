import type { HistoryEntry } from '../../../router/api-types.js';

/**
 * What tells one history entry from another: its number in the router's history, or, for an entry written
 * before entries were numbered, its request id and start. Never the request id alone: agents may send one
 * `x-request-id` with several requests.
 */
export function entryKey(entry: Pick<HistoryEntry, 'seq' | 'requestId' | 'at'>): string {
  return entry.seq === undefined ? `${entry.requestId}@${entry.at}` : `#${entry.seq}`;
}
