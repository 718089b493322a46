/**
 * The walk of one request: starts a router in this process over a fake upstream (port 0), sends each
 * walked request once to warm it, then records V8 precise coverage around one non-streamed
 * `POST /v1/chat/completions` and one streamed `POST /v1/messages`, and prints the `router/` files and
 * functions each ran, with totals. Coverage is also taken at the moment the router ends its answer (its
 * last byte written), so the walk tells what ran before it and what only after it (the bookkeeping).
 * `npm run walk` (`-- --json` prints the walks as JSON).
 */
import { ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Profiler } from 'node:inspector';
import { coverageWalk, mergeTakes, type Walk } from './coverage-walk.js';
import { httpRequest } from '../router/test-support/http-client.js';
import type { RouterHarness } from '../router/test-support/router-harness.js';
import { withScenario } from '../router/test-support/scenario.js';
import { byStreaming, json, sseContent } from '../router/test-support/upstream-behaviours.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODEL = 'good/coder';

/** A request's walk, with how many of its files ran before the answer's last byte and how many only after. */
export interface RequestWalk extends Walk {
  /** Files that ran code before the router ended the answer (wrote its last byte). */
  filesBeforeEnd: number;
  /** Files that ran code only after it: the request's bookkeeping. */
  filesOnlyAfter: string[];
}

/** One request to walk: its name and how to send it (resolves once the router has booked it). */
interface WalkedRequest {
  name: string;
  send: (router: RouterHarness) => Promise<void>;
}

const REQUESTS: readonly WalkedRequest[] = [
  {
    name: 'POST /v1/chat/completions (JSON)',
    send: async (router) => expectOk(await router.chat({ messages: [{ role: 'user', content: 'Hi' }] })),
  },
  {
    name: 'POST /v1/messages (stream)',
    send: async (router) =>
      expectOk(
        await httpRequest(`${router.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'any' },
          body: JSON.stringify({
            model: 'fcm',
            max_tokens: 64,
            stream: true,
            messages: [{ role: 'user', content: 'Hi' }],
          }),
        }),
      ),
  },
];

function expectOk(reply: { status: number }): void {
  if (reply.status !== 200) throw new Error(`the walked request answered ${reply.status}`);
}

/** Sends `request` and waits until its history entry is booked: bookkeeping is part of the walk. */
async function sendAndBook(router: RouterHarness, request: WalkedRequest): Promise<void> {
  const booked = router.nextEntry();
  await request.send(router);
  await booked;
}

/** The counts since the last take (V8 resets them at every take, at once: the post is answered later). */
async function takeCoverage(session: Session): Promise<Profiler.ScriptCoverage[]> {
  return (await session.post('Profiler.takePreciseCoverage')).result;
}

/**
 * Takes coverage the moment the router's server ends a response (on `port`): a same-thread inspector
 * session handles the take inside the call, so the take holds exactly what ran before the last byte.
 * Returns that take, and the way to stop watching.
 */
function takeAtAnswerEnd(
  session: Session,
  port: number,
): { taken: () => Promise<Profiler.ScriptCoverage[]>; stop: () => void } {
  const end = ServerResponse.prototype.end;
  let taken: Promise<Profiler.ScriptCoverage[]> | null = null;
  ServerResponse.prototype.end = function endAndTake(this: ServerResponse, ...args: unknown[]) {
    if (taken === null && this.socket?.localPort === port) taken = takeCoverage(session);
    return (end as (...rest: unknown[]) => ServerResponse).apply(this, args);
  } as typeof end;
  return {
    taken: () => taken ?? Promise.reject(new Error('the router never ended its answer')),
    stop: () => {
      ServerResponse.prototype.end = end;
    },
  };
}

/**
 * The next request's booking (its history entry's event), from one listener subscribed for the whole walk:
 * subscribing or unsubscribing during a walked request would count as the request's own code.
 */
function bookings(router: RouterHarness): () => Promise<void> {
  let booked: (() => void) | null = null;
  router.router.on('request', () => booked?.());
  return () =>
    new Promise<void>((resolve) => {
      booked = resolve;
    });
}

/** Walks one request: what it ran up to its answer's end, and after it until its history entry is booked. */
async function walkOne(
  router: RouterHarness,
  session: Session,
  walked: { request: WalkedRequest; booked: Promise<void> },
): Promise<RequestWalk> {
  const { request, booked } = walked;
  const scope = { root: ROOT, folder: 'router' };
  await takeCoverage(session); // the zero: V8 resets the counts at every take
  const atEnd = takeAtAnswerEnd(session, Number(new URL(router.url).port));
  try {
    await request.send(router);
    await booked;
  } finally {
    atEnd.stop();
  }
  const after = await takeCoverage(session);
  const before = await atEnd.taken();
  const beforeFiles = new Set(coverageWalk(before, scope).files.map((entry) => entry.file));
  const walk = coverageWalk(mergeTakes(before, after), scope);
  return {
    ...walk,
    filesBeforeEnd: beforeFiles.size,
    filesOnlyAfter: walk.files.map((entry) => entry.file).filter((file) => !beforeFiles.has(file)),
  };
}

/** Walks each request once, warmed by one request of its own kind before. */
async function walkAll(router: RouterHarness, session: Session): Promise<Map<string, RequestWalk>> {
  for (const request of REQUESTS) await sendAndBook(router, request);
  const walks = new Map<string, RequestWalk>();
  const nextBooking = bookings(router);
  for (const request of REQUESTS)
    walks.set(request.name, await walkOne(router, session, { request, booked: nextBooking() }));
  return walks;
}

/**
 * The walk as text: totals, then each file with the functions it ran (`×n` for more than one call); a file
 * that ran only after the answer's last byte is marked `[after]`.
 */
export function formatWalk(name: string, walk: RequestWalk): string {
  const { files, filesBeforeEnd, filesOnlyAfter } = walk;
  const split = `${filesBeforeEnd} before the answer's last byte, ${filesOnlyAfter.length} only after it`;
  const lines = [
    `${name}: ${files.length} files (${split}), ${walk.functionCount} functions, ${walk.callCount} calls`,
  ];
  const after = new Set(filesOnlyAfter);
  for (const { file, functions } of files) {
    const names = functions.map((fn) => (fn.calls > 1 ? `${fn.name}×${fn.calls}` : fn.name));
    lines.push(`  ${file}${after.has(file) ? ' [after]' : ''} (${functions.length}): ${names.join(', ')}`);
  }
  return lines.join('\n');
}

/** Starts the router over a fake upstream and walks each request, by request name. */
export async function walkRequests(): Promise<Map<string, RequestWalk>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  let walks = new Map<string, RequestWalk>();
  try {
    await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
      upstream.always(MODEL, byStreaming(sseContent(['Hello', ' there', '!']), json('Hello there!')));
      walks = await walkAll(router, session);
    });
  } finally {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
  }
  return walks;
}

async function main(): Promise<void> {
  const walks = await walkRequests();
  if (process.argv.includes('--json')) console.log(JSON.stringify(Object.fromEntries(walks), null, 2));
  else for (const [name, walk] of walks) console.log(`${formatWalk(name, walk)}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
