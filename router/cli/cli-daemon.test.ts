import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remoteWarning } from './cli-daemon.js';
import { runCli } from '../test-support/cli-process.js';

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
