/**
 * Which conversation a request belongs to, from what the agents send on every turn: Claude Code's
 * `x-claude-code-session-id` header (and its `metadata.user_id`, which carries the session), Codex's
 * `session-id` and `thread-id` headers, OpenCode's `x-session-id`. An agent that names none (Qwen Code,
 * Continue, Aider) is known by how its conversation begins (`conversationOf`). The router keeps a
 * conversation on the model that served its last turn; it only needs to tell conversations apart, so it
 * keeps a short hash, never the id or the words themselves.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../gate/safe-json.js';

/** The headers agents name their session in. */
export const SESSION_HEADERS = [
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

/**
 * This process's own key for a conversation's words: its 16 hex digits (kept in history) can never be
 * checked against a guess of what the conversation says.
 */
const CONVERSATION_KEY = randomBytes(32);

/** How much of a conversation's first system and user messages names it. */
const BEGINNING_CHARS = 4096;

/** The text of a message's content: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (isRecord(part) && typeof part.text === 'string') text += part.text;
  return text;
}

/** A conversation an agent names no session for: its hash, and whether this request is its first turn. */
export interface Conversation {
  id: string;
  /** Its first turn (no assistant turn yet): it has no model to go back to, and its model becomes one. */
  opens: boolean;
}

/**
 * The conversation of a chat `body` whose agent names no session, hashed with this process's own key: its
 * first system and user messages, which every later turn repeats as they were. Its first turn names it too,
 * so that the model serving it is where the second goes, but goes to no model of its own: a request sent
 * again as it was (a one-off, or a conversation begun again) goes down the set like any other. Null for a
 * request with no user message.
 */
export function conversationOf(body: Record<string, unknown>): Conversation | null {
  const messages = body.messages;
  if (!Array.isArray(messages)) return null;
  let system: string | null = null;
  let user: string | null = null;
  let answered = false;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    if (message.role === 'system') system ??= textOf(message.content);
    else if (message.role === 'user') user ??= textOf(message.content);
    else if (message.role === 'assistant') answered = true;
    if (answered && user !== null) break;
  }
  if (user === null) return null;
  const beginning = `${(system ?? '').slice(0, BEGINNING_CHARS)}\u0000${user.slice(0, BEGINNING_CHARS)}`;
  const id = createHmac('sha256', CONVERSATION_KEY).update(beginning).digest('hex').slice(0, 16);
  return { id, opens: !answered };
}
