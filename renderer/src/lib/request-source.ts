import type { ApiFace, HistoryEntry, RequestSource } from '../../../router/api-types.js';

/** Who sent a request; entries recorded before sources were are an agent's. */
export function sourceOf(entry: Pick<HistoryEntry, 'source'>): RequestSource {
  return entry.source ?? 'agent';
}

/** Whether a request counts as agent traffic (tests and probes are shown, not counted). */
export function isAgentRequest(entry: Pick<HistoryEntry, 'source'>): boolean {
  return sourceOf(entry) === 'agent';
}

/** The API face a request came through; entries recorded before faces were came through Chat. */
export function faceOf(entry: Pick<HistoryEntry, 'api'>): ApiFace {
  return entry.api ?? 'chat';
}

export const FACE_LABELS: Record<ApiFace, string> = {
  chat: 'Chat Completions',
  messages: 'Messages',
  responses: 'Responses',
};

export const SOURCE_LABELS: Record<RequestSource, string> = {
  agent: 'agent',
  test: 'dashboard test',
  probe: 'probe',
};
