/**
 * Ids the router makes for an answer: a message's, a response's and its items', and a tool call's that
 * came without one. Each answer takes a fresh random stem, never the request's id (which an agent may
 * choose and repeat), so no two answers share an id and a tool result always finds its call.
 */
import { randomBytes } from 'node:crypto';

/** A new stem for the ids one answer mints. */
export function freshIdStem(): string {
  return randomBytes(12).toString('hex');
}

/**
 * The tool-call ids one answer mints, one by one (`call_fcm_<stem>_1`, `_2`…): the stem is made at the first,
 * since most answers mint none.
 */
export function callIdMinter(): () => string {
  let stem: string | null = null;
  let minted = 0;
  return () => `call_fcm_${(stem ??= freshIdStem())}_${(minted += 1)}`;
}
