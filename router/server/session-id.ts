/**
 * Which conversation a request belongs to, from what the agents send on every turn: Claude Code's
 * `x-claude-code-session-id` header (and its `metadata.user_id`, which carries the session), Codex's
 * `session-id` and `thread-id` headers, OpenCode's `x-session-id`. The router keeps a conversation on the
 * model that served its last turn; it only needs to tell conversations apart, so it keeps a short hash,
 * never the id itself.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const SESSION_HEADERS = [
  'x-claude-code-session-id',
  'session-id',
  'session_id',
  'thread-id',
  'x-session-id',
] as const;

/** Longest id taken: anything longer is not an agent's session id. */
const MAX_ID_LENGTH = 512;

function usable(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

/** The 16 hex digits the router knows a session by. */
export function sessionHash(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 16);
}

/**
 * The session of a request (`headers` as the agent sent them, `body` as parsed), hashed; null when it names
 * none.
 */
export function sessionOf(headers: IncomingHttpHeaders, body: Record<string, unknown>): string | null {
  for (const name of SESSION_HEADERS) {
    const value = headers[name];
    if (usable(value)) return sessionHash(value);
  }
  const metadata = body.metadata;
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    const user = (metadata as Record<string, unknown>).user_id;
    if (usable(user)) return sessionHash(user);
  }
  return null;
}
