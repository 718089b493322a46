/**
 * The desktop pipeline against the real router library, minus Electron: the in-process router and an
 * attached one feed DesktopStatus, a failing upstream model turns the tray amber, and pause works through
 * the HTTP API with the dashboard token.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startRouter, type RouterHandle } from '../router/index.js';
import { DesktopStatus } from './desktop-status.js';
import type { Notice } from './notification-throttle.js';
import { attachedSource } from './remote-router.js';
import { ownedSource } from './router-source.js';
import { ioTurns } from '../router/test-support/deferred.js';
import { TestClock } from '../router/test-support/test-clock.js';

/** `bad` answers 200 with no choices (a sneaky failure), `good` answers properly. */
async function upstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const model = (JSON.parse(body || '{}') as { model?: string }).model;
      res.setHeader('content-type', 'application/json');
      const choices =
        model === 'good'
          ? [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }]
          : [];
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', model, choices }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A router and the desktop side on one test clock, which moves only when the test moves it. */
async function withRouter(run: (router: RouterHandle, time: TestClock) => Promise<void>): Promise<void> {
  const time = new TestClock();
  const up = await upstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-desktop-int-'));
  const rendererDir = path.join(dir, 'renderer');
  await mkdir(rendererDir);
  await writeFile(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><meta name="fcm-token" content="__FCM_TOKEN__"><title>fcm-router</title>',
  );
  await writeFile(
    path.join(dir, 'config.json'),
    JSON.stringify({
      providers: { up: { baseUrl: up.url, apiKey: 'k', models: ['bad', 'good'] } },
      sets: { default: ['up/bad', 'up/good'] },
      router: { breaker: { failureThreshold: 1, initialCooldownMs: 600_000, maxCooldownMs: 600_000 } },
    }),
  );
  const router = await startRouter({
    port: 0,
    stateDir: dir,
    rendererDir,
    env: {},
    persistDebounceMs: 10,
    time,
  });
  try {
    await run(router, time);
  } finally {
    await router.stop({ graceMs: 0 });
    await up.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function chat(url: string): Promise<number> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hello' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Until `check` holds: lets the router's answers and events arrive (a few rounds of the event loop), then
 * moves the tray's clock a step, so its throttle and notification batch run; bounded by steps, not time.
 */
async function eventually(time: TestClock, check: () => boolean, what: string): Promise<void> {
  for (let step = 0; step < 200; step++) {
    if (check()) return;
    await ioTurns();
    await time.advanceSettling(25);
  }
  assert.fail(`never saw ${what}`);
}

function watch(source: Parameters<DesktopStatus['attach']>[0], time: TestClock) {
  const notices: Notice[] = [];
  const status = new DesktopStatus({
    time,
    render: () => undefined,
    notify: (notice) => notices.push(notice),
    notificationsEnabled: () => true,
    maxUpdatesPerSecond: 20,
    notificationBatchMs: 20,
  });
  status.attach(source);
  return { status, notices };
}

test('in-process: a sneaky empty 200 trips the model, the tray turns amber and notifies', async () => {
  await withRouter(async (router, time) => {
    const source = ownedSource(router);
    const { status, notices } = watch(source, time);
    await eventually(time, () => status.view.colour === 'green', 'green');
    assert.equal(await chat(router.url), 200);
    // The breaker event and the request event arrive separately; the tray catches up with both.
    const expected =
      'fcm-router — 1 of 2 models out (1 OPEN); next request goes to up/good · last: up/good (1 failover)';
    await eventually(time, () => status.view.tooltip === expected, `the tooltip "${expected}"`);
    assert.equal(status.view.colour, 'amber');
    await eventually(time, () => notices.length > 0, 'a notification');
    assert.equal(notices[0]?.title, 'Model tripped: up/bad');
    // Nothing from the request (prompt or completion) ever reaches what the tray shows.
    assert.ok(!JSON.stringify([status.view, notices]).includes('hello'));
    status.dispose();
    // Quitting the app closes the owned source: the router stops and its breaker state is on disk.
    await source.close();
    await assert.rejects(fetch(`${router.url}/health`));
    const saved = JSON.parse(await readFile(path.join(router.stateDir, 'breakers.json'), 'utf8')) as {
      breakers: Record<string, { state: string }>;
    };
    assert.equal(saved.breakers['up/bad']?.state, 'OPEN');
  });
});

test('attached: the HTTP client follows the real router, and pauses it with the dashboard token', async () => {
  await withRouter(async (router, time) => {
    const source = attachedSource(router.url, { reconnectMs: 50, time });
    const { status } = watch(source, time);
    await eventually(time, () => status.view.colour === 'green', 'green');
    assert.equal(await chat(router.url), 200);
    await eventually(time, () => status.view.colour === 'amber', 'amber over SSE');
    await source.setPaused(true);
    assert.equal(router.isPaused(), true);
    await eventually(time, () => status.view.colour === 'red', 'red when paused');
    await source.setPaused(false);
    await eventually(time, () => status.view.colour === 'amber', 'amber again');
    status.dispose();
    await source.close();
  });
});
