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
import { resolveConfig } from '../config/resolve-config.js';
import { parseConfig, type ConfigInput } from '../config/schema.js';
import { Answer } from '../engine/answer/answer.js';
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
  const state = { time: clock, debounceMs: 60_000, logger };
  const breakers = new BreakerStore({
    ...state,
    file: path.join(dir, 'breakers.json'),
    settings: () => resolved.config.router.breaker,
  });
  const quotas = new QuotaBook({ ...state, file: path.join(dir, 'quotas.json') });
  const history = new RequestHistory({ ...state, file: path.join(dir, 'history.json') });
  const modelStats = new ModelStatsBook();
  const latency = new LatencyBook({ ...state, file: path.join(dir, 'latency.json') });
  const upstream = new UpstreamClient();
  const fits = new FitBook({ ...state, file: path.join(dir, 'fit.json') });
  const engine = new RouterEngine({
    fits,
    resolved,
    breakers,
    quotas,
    history,
    modelStats,
    latency,
    probeBook: new ProbeBook({
      ...state,
      file: path.join(dir, 'probes.json'),
      zoneOf: (provider) => resolved.providers.get(provider)?.dayTimeZone ?? UTC_ZONE,
    }),
    upstream,
    isOnline: () => true,
    events: new EventBus(),
    time: clock,
    logger,
  });
  let encoder = makeEncoder;
  let face: FaceSpec<unknown> | null = null;
  let requests = 0;
  const server = http.createServer((req, res) => {
    if (face !== null) {
      void handleFace(engine, face, req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const answer = new Answer(res, encoder(), `req-${(requests += 1)}`);
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
          needs: estimateNeeds(Buffer.concat(chunks).length, body),
          session: null,
        },
        answer,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    engine,
    clock,
    breakers,
    modelStats,
    logger,
    history,
    useEncoder: (make) => {
      encoder = make;
    },
    useFace: (spec) => {
      face = spec;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await upstream.close();
      await Promise.all([breakers, quotas, history, latency, fits].map((store) => store.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
