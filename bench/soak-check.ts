/**
 * What the chaos soak's client saw, and the client-side invariants: decision headers on every response;
 * never an empty 200; never an error frame before content; a complete answer from the model the headers
 * name, or a clearly marked partial one; an OpenAI-shaped error otherwise. Pure.
 */

export interface ClientView {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  stream: boolean;
  /** Request sent to response head received, ms. */
  headMs: number;
  /** The client gave up waiting (a hang). */
  timedOut: boolean;
  /** The client left once the first bytes arrived (`body` holds them). */
  left?: boolean;
}

export type ClientResult =
  | { kind: 'complete'; model: string; content: string }
  | { kind: 'partial'; model: string; content: string }
  | { kind: 'left'; model: string }
  | { kind: 'error'; status: number; code: string | null };

const DECISION_HEADERS = ['x-request-id', 'x-fcm-v2-model', 'x-fcm-v2-attempts', 'x-fcm-v2-decision'];

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function firstChoice(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value) || !Array.isArray(value.choices)) return null;
  const choice: unknown = value.choices[0];
  return isRecord(choice) ? choice : null;
}

/** Reads an SSE body: content deltas in order, and where the first error frame and `[DONE]` came. */
export function readSse(body: string): {
  content: string;
  errorBeforeContent: boolean;
  errorAfterContent: boolean;
  done: boolean;
  framesAfterError: number;
} {
  let content = '';
  let errorBeforeContent = false;
  let errorAfterContent = false;
  let done = false;
  let framesAfterError = 0;
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (errorBeforeContent || errorAfterContent) framesAfterError += 1;
    if (data === '[DONE]') {
      done = true;
      continue;
    }
    const frame = parse(data);
    if (isRecord(frame) && frame.error !== undefined && frame.error !== null) {
      if (content.length > 0) errorAfterContent = true;
      else errorBeforeContent = true;
      continue;
    }
    const delta = firstChoice(frame)?.delta;
    if (isRecord(delta) && typeof delta.content === 'string') content += delta.content;
  }
  return { content, errorBeforeContent, errorAfterContent, done, framesAfterError };
}

/**
 * Checks one response against the invariants. `answerOf(model)` is the full answer that model gives.
 * Returns what the client got, or the violations.
 */
export function checkClientView(
  view: ClientView,
  answerOf: (model: string) => string,
  budgetMs: number,
): { result: ClientResult | null; violations: string[] } {
  const violations: string[] = [];
  if (view.timedOut) return { result: null, violations: ['hang: no complete response'] };
  for (const name of DECISION_HEADERS)
    if (typeof view.headers[name] !== 'string') violations.push(`missing header ${name}`);
  if (view.headMs > budgetMs)
    violations.push(`response head after ${Math.round(view.headMs)} ms, past the ${budgetMs} ms budget`);
  const model = String(view.headers['x-fcm-v2-model'] ?? '');
  if (view.status !== 200) {
    const body = parse(view.body);
    const error = isRecord(body) && isRecord(body.error) ? body.error : null;
    if (!error || typeof error.message !== 'string')
      violations.push(`status ${view.status} without an OpenAI-shaped error body`);
    const code = error && typeof error.code === 'string' ? error.code : null;
    return { result: { kind: 'error', status: view.status, code }, violations };
  }
  if (view.left) return { result: { kind: 'left', model }, violations };
  const expected = answerOf(model);
  if (!view.stream) {
    const message = firstChoice(parse(view.body))?.message;
    const content = isRecord(message) && typeof message.content === 'string' ? message.content : '';
    if (content.trim() === '') violations.push('empty 200');
    else if (content !== expected) violations.push(`200 from ${model} with content that is not its answer`);
    return { result: { kind: 'complete', model, content }, violations };
  }
  const sse = readSse(view.body);
  if (sse.errorBeforeContent) violations.push('error frame before content');
  if (sse.content === '') violations.push('empty 200 stream');
  if (!expected.startsWith(sse.content))
    violations.push(`stream from ${model} carries text that is not its answer (spliced?)`);
  if (sse.errorAfterContent) {
    if (sse.done || sse.framesAfterError > 0)
      violations.push('frames or [DONE] after the closing error frame');
    return { result: { kind: 'partial', model, content: sse.content }, violations };
  }
  if (!sse.done) violations.push('stream ended without [DONE] or an error frame');
  if (sse.content !== expected)
    violations.push(`stream from ${model} ended cleanly with an incomplete answer`);
  return { result: { kind: 'complete', model, content: sse.content }, violations };
}
