import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliProcess, runCli } from './test-support/cli-process.js';
import { startFakeUpstream, type FakeUpstream } from './test-support/fake-upstream.js';
import { json, slowButGood } from './test-support/upstream-behaviours.js';
import { httpRequest } from './test-support/http-client.js';
import { scenarioConfig } from './test-support/scenario.js';

const URL_LINE = /listening on (http:\/\/127\.0\.0\.1:(\d+))/;
const CHAT = JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] });

interface Setup {
  dir: string;
  stateDir: string;
  configFile: string;
  upstream: FakeUpstream;
}

async function withSetup(config: unknown | null, run: (setup: Setup) => Promise<void>): Promise<void> {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-cli-'));
  const configFile = path.join(dir, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify(config ?? scenarioConfig(upstream, { providers: { alpha: ['m1'] } })),
    { mode: 0o600 },
  );
  try {
    await run({ dir, stateDir: path.join(dir, 'state'), configFile, upstream });
  } finally {
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const chat = (url: string) =>
  httpRequest(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: CHAT,
  });

test('daemon: prints its URL, logs one line per request, finishes an in-flight request on SIGTERM and exits 0', async () => {
  await withSetup(null, async ({ stateDir, configFile, upstream }) => {
    const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      assert.ok(url);
      upstream.script('alpha/m1', json('quick'), slowButGood(700, 'slow'));
      const first = await chat(url);
      assert.equal(first.status, 200);
      await daemon.waitForLine(/ served 200 fcm → alpha\/m1 1 attempt /);

      const inFlight = chat(url);
      await upstream.nextCall('alpha/m1', 2);
      daemon.signal('SIGTERM');
      const slow = await inFlight;
      assert.equal(slow.status, 200);
      assert.match(slow.text, /slow/);
      assert.equal(await daemon.exited, 0);
      const requestLines = daemon.lines.filter((line) => / served 200 fcm /.test(line));
      assert.equal(requestLines.length, 2, daemon.output());
    } finally {
      await daemon.kill();
    }
  });
});

test('status and stop find the daemon through its daemon file', async () => {
  await withSetup(null, async ({ stateDir, configFile }) => {
    const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      const status = await runCli(['status', '--state-dir', stateDir]);
      assert.equal(status.code, 0, status.output);
      assert.ok(status.output.includes(`running at ${url}`), status.output);

      const stop = await runCli(['stop', '--state-dir', stateDir]);
      assert.equal(stop.code, 0, stop.output);
      assert.match(stop.output, /stopped/);
      assert.equal(await daemon.exited, 0);

      const after = await runCli(['status', '--state-dir', stateDir]);
      assert.equal(after.code, 3);
      assert.match(after.output, /not running/);
    } finally {
      await daemon.kill();
    }
  });
});

test('an invalid config (unknown key) makes the daemon refuse to start with exit 1, naming the JSON path', async () => {
  await withSetup(
    { router: { failover: { requestTimeoutMs: 1000, retryForever: true } } },
    async ({ stateDir, configFile }) => {
      const result = await runCli(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
      assert.equal(result.code, 1, result.output);
      assert.match(result.output, /refusing to start/);
      assert.match(result.output, /router\.failover\.retryForever: unknown key/);
    },
  );
});
