import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { remoteWarning } from './cli-daemon.js';
import { CliProcess, runCli } from '../test-support/cli-process.js';

test('the remote warning names what becomes reachable and where the token is', () => {
  const text = remoteWarning('http://0.0.0.0:19280', '/home/ada/.config/fcm-router').join('\n');
  assert.match(text, /WARNING: listening on http:\/\/0\.0\.0\.0:19280, reachable from the network/);
  assert.match(text, /chat requests through your provider keys/);
  assert.match(text, /dashboard/);
  assert.match(text, /management API \(\/api\/\*\)/);
  assert.ok(text.includes('/home/ada/.config/fcm-router/daemon.json'));
});

test('daemon --host beyond loopback without --allow-remote exits 2 before listening', async () => {
  const result = await runCli([
    'daemon',
    '--host',
    '0.0.0.0',
    '--port',
    '0',
    '--state-dir',
    '/nonexistent/x',
  ]);
  assert.equal(result.code, 2, result.output);
  assert.match(result.output, /--host 0\.0\.0\.0 is not a loopback address: add --allow-remote/);
});

test('daemon --demo --config exits 2 naming both flags, and neither reads nor writes the file', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-demo-config-'));
  const configFile = path.join(dir, 'config.json');
  // Invalid on purpose: a demo that fell back to its own config here would replace the file on its first save.
  const mine = '{ "providers": { "groq": { "apiKey": "gsk_mine" } }, }\n';
  await writeFile(configFile, mine, { mode: 0o600 });
  const stateDir = path.join(dir, 'state');
  const daemon = new CliProcess([
    'daemon',
    '--demo',
    '--config',
    configFile,
    '--port',
    '0',
    '--state-dir',
    stateDir,
  ]);
  try {
    assert.equal(await daemon.exited, 2, daemon.output());
    assert.match(daemon.output(), /--demo and --config cannot be used together/);
    assert.match(daemon.output(), /Usage:/);
    assert.equal(await readFile(configFile, 'utf8'), mine);
    assert.deepEqual(await readdir(dir), ['config.json'], 'no state folder made');
  } finally {
    await daemon.kill();
    await rm(dir, { recursive: true, force: true });
  }
});
