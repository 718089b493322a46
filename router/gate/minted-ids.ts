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

/** The id of the `n`th tool call (from 1) minted under `stem`. */
export function mintedCallId(stem: string, n: number): string {
  return `call_fcm_${stem}_${n}`;
}
