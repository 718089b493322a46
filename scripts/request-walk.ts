/**
 * The walk of one request: starts a router in this process over a fake upstream (port 0), sends each
 * walked request once to warm it, then records V8 precise coverage around one non-streamed
 * `POST /v1/chat/completions` and one streamed `POST /v1/messages`, and prints the `router/` files and
 * functions each ran, with totals. `npm run walk` (`-- --json` prints the walks as JSON).
 */
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Profiler } from 'node:inspector';
import { coverageWalk, type Walk } from './coverage-walk.js';
import { httpRequest } from '../router/test-support/http-client.js';
import type { RouterHarness } from '../router/test-support/router-harness.js';
import { withScenario } from '../router/test-support/scenario.js';
import { byStreaming, json, sseContent } from '../router/test-support/upstream-behaviours.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODEL = 'good/coder';

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

/** The counts since the last take (V8 resets them at every take). */
async function takeCoverage(session: Session): Promise<Profiler.ScriptCoverage[]> {
  return (await session.post('Profiler.takePreciseCoverage')).result;
}

/** Walks each request once, warmed by one request of its own kind before. */
async function walkAll(router: RouterHarness, session: Session): Promise<Map<string, Walk>> {
  for (const request of REQUESTS) await sendAndBook(router, request);
  const walks = new Map<string, Walk>();
  for (const request of REQUESTS) {
    await takeCoverage(session); // the zero: V8 resets the counts at every take
    await sendAndBook(router, request);
    walks.set(request.name, coverageWalk(await takeCoverage(session), { root: ROOT, folder: 'router' }));
  }
  return walks;
}

/** The walk as text: totals, then each file with the functions it ran (`×n` for more than one call). */
export function formatWalk(name: string, walk: Walk): string {
  const lines = [
    `${name}: ${walk.files.length} files, ${walk.functionCount} functions, ${walk.callCount} calls`,
  ];
  for (const { file, functions } of walk.files) {
    const names = functions.map((fn) => (fn.calls > 1 ? `${fn.name}×${fn.calls}` : fn.name));
    lines.push(`  ${file} (${functions.length}): ${names.join(', ')}`);
  }
  return lines.join('\n');
}

/** Starts the router over a fake upstream and walks each request, by request name. */
export async function walkRequests(): Promise<Map<string, Walk>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  let walks = new Map<string, Walk>();
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
