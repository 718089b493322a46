import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliProcess, runCli } from '../test-support/cli-process.js';
import { unreachableProviders } from '../test-support/fake-upstream.js';
import { httpRequest } from '../test-support/http-client.js';

const URL_LINE = /listening on (http:\/\/127\.0\.0\.1:(\d+))/;
const CHAT = JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] });

test('status prints the verdict line and exits 0 routing, 5 paused, 4 when every agent request fails', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-status-'));
  const configFile = path.join(dir, 'config.json');
  const stateDir = path.join(dir, 'state');
  const config = {
    providers: await unreachableProviders(),
    sets: { main: ['gone/m0', 'lost/m1'] },
    activeSet: 'main',
  };
  await writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
  const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
  try {
    const [, url] = await daemon.waitForLine(URL_LINE);
    assert.ok(url);
    const status = () => runCli(['status', '--state-dir', stateDir]);

    const fine = await status();
    assert.equal(fine.code, 0, fine.output);
    assert.match(fine.output, /running at /);
    assert.match(fine.output, /^health: green · routing — next request goes to gone\/m0 · paused: no$/m);

    assert.equal((await runCli(['pause', '--state-dir', stateDir])).code, 0);
    const paused = await status();
    assert.equal(paused.code, 5, paused.output);
    assert.match(
      paused.output,
      /^health: red · paused — routing is paused, .* · next model: none until resumed · paused: yes$/m,
    );
    assert.equal((await runCli(['resume', '--state-dir', stateDir])).code, 0);

    for (let i = 0; i < 6; i += 1) {
      const reply = await httpRequest(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: CHAT,
      });
      assert.equal(reply.status, 502);
    }
    const failing = await status();
    assert.equal(failing.code, 4, failing.output);
    assert.match(
      failing.output,
      /^health: red · requests failing — the last 6 requests failed: no provider reachable \(network_error\) — check the connection or proxy · next model: gone\/m0 · paused: no$/m,
    );
  } finally {
    await daemon.kill();
    await rm(dir, { recursive: true, force: true });
  }
});
