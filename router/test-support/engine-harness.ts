/**
 * The engine alone behind a bare HTTP server, with an encoder of the test's choosing for every answer:
 * for what only a face controls (an encoder that throws, a face's translation), without the dashboard,
 * guards or config files of a whole router; or through the server's face route with a face of its choosing. Stores are real, in a temp dir; time is a `TestClock` the test moves.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, type ResolvedConfig } from '../config/resolve-config.js';
import { parseConfig, type ConfigInput } from '../config/schema.js';
import { Answer } from '../engine/answer/answer.js';
import type { RouterLogger } from '../public-types.js';
import type { AnswerEncoder } from '../faces/answer-encoder.js';
import { EventBus } from '../engine/event-bus.js';
import { estimateNeeds } from '../faces/request-size.js';
import { RouterEngine } from '../engine/router-engine.js';
import { handleFace, type FaceSpec } from '../server/face-route.js';
import { BreakerStore } from '../state/breaker-store.js';
import { FitBook } from '../state/fit-book.js';
import { LatencyBook, ModelStatsBook } from '../state/model-stats.js';
import { ProbeBook } from '../state/probe-book.js';
import { QuotaBook } from '../state/quota-book.js';
import { RequestHistory } from '../state/request-history.js';
import { ClientGone } from '../upstream/attempt-guard.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { recordingLogger } from './state-test-helpers.js';
import { TestClock } from './test-clock.js';
import { UTC_ZONE } from '../state/day-start.js';

export interface EngineHarness {
  url: string;
  engine: RouterEngine;
  /** The engine's time: it moves, and its deadlines fire, only when the test advances it. */
  clock: TestClock;
  breakers: BreakerStore;
  modelStats: ModelStatsBook;
  logger: ReturnType<typeof recordingLogger>;
  history: RequestHistory;
  /** The encoder the next answers use (a fresh one per request). */
  useEncoder(make: () => AnswerEncoder): void;
  /** Serves the next requests through the server's face route with `face` (its translator and encoders). */
  useFace(face: FaceSpec<unknown>): void;
  close(): Promise<void>;
}

/** The engine's real stores, each in its own file of `dir`, dated by `clock`. */
function openStores(dir: string, resolved: ResolvedConfig, clock: TestClock, logger: RouterLogger) {
  const state = { time: clock, debounceMs: 60_000, logger };
  const file = (name: string) => ({ ...state, file: path.join(dir, name) });
  return {
    breakers: new BreakerStore({ ...file('breakers.json'), settings: () => resolved.config.router.breaker }),
    quotas: new QuotaBook(file('quotas.json')),
    history: new RequestHistory(file('history.json')),
    latency: new LatencyBook(file('latency.json')),
    fits: new FitBook(file('fit.json')),
    probeBook: new ProbeBook({
      ...file('probes.json'),
      zoneOf: (provider) => resolved.providers.get(provider)?.dayTimeZone ?? UTC_ZONE,
    }),
  };
}

/** How the harness's server answers: through a face route when one is set, else with the test's encoder. */
interface Serving {
  face: FaceSpec<unknown> | null;
  encoder: () => AnswerEncoder;
  requests: number;
}

/** A bare chat request as the server hands it to the engine, answered with `serving`'s encoder. */
function handleBare(
  engine: RouterEngine,
  serving: Serving,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const answer = new Answer(res, serving.encoder(), `req-${(serving.requests += 1)}`);
    void engine.handleChat(
      {
        requestId: answer.trace.requestId,
        modelRequested: typeof body.model === 'string' ? body.model : 'fcm',
        body,
        stream: body.stream === true,
        clientHeaders: req.headers,
        client: null,
        source: 'agent',
        clientGone: new ClientGone(),
        needs: estimateNeeds(raw.length, body),
        session: null,
        opensConversation: false,
      },
      answer,
    );
  });
}

/** Starts the engine over `config` (its providers' keys given inline) behind `POST <url>/`. */
export async function startEngineHarness(
  config: ConfigInput,
  makeEncoder: () => AnswerEncoder,
): Promise<EngineHarness> {
  const parsed = parseConfig(config);
  if (!parsed.ok) throw new Error(`bad test config: ${JSON.stringify(parsed.issues)}`);
  const resolved = resolveConfig(parsed.config, {});
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-engine-'));
  const clock = new TestClock();
  const logger = recordingLogger();
  const stores = openStores(dir, resolved, clock, logger);
  const modelStats = new ModelStatsBook();
  const upstream = new UpstreamClient();
  const engine = new RouterEngine({
    ...stores,
    resolved,
    modelStats,
    upstream,
    isOnline: () => true,
    events: new EventBus(),
    time: clock,
    logger,
  });
  const serving: Serving = { face: null, encoder: makeEncoder, requests: 0 };
  const server = http.createServer((req, res) => {
    if (serving.face !== null) void handleFace(engine, serving.face, req, res);
    else handleBare(engine, serving, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { breakers, history } = stores;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    engine,
    clock,
    breakers,
    modelStats,
    logger,
    history,
    useEncoder: (make) => {
      serving.encoder = make;
    },
    useFace: (spec) => {
      serving.face = spec;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await upstream.close();
      await Promise.all(Object.values(stores).map((store) => store.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
