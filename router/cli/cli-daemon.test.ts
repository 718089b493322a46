import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { remoteWarning } from './cli-daemon.js';
import { chatTo, withCliSetup } from '../test-support/cli-setup.js';
import { CliProcess, runCli } from '../test-support/cli-process.js';
import { deadUrl } from '../test-support/fake-upstream.js';
import { json } from '../test-support/upstream-behaviours.js';

const URL_LINE = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

test('the remote warning names what becomes reachable and where the token is', () => {
  const text = remoteWarning('http://0.0.0.0:19280', '/home/ada/.config/fcm-router').join('\n');
  assert.match(text, /WARNING: listening on http:\/\/0\.0\.0\.0:19280, reachable from the network/);
  assert.match(text, /chat requests through your provider keys/);
  assert.match(text, /dashboard/);
  assert.match(text, /management API \(\/api\/\*\)/);
  assert.ok(text.includes('/home/ada/.config/fcm-router/daemon.json'));
  // In the fragment, which the browser sends to no server.
  assert.ok(text.includes('http://0.0.0.0:19280/#token=<token>'));
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

test('a daemon whose standard output goes away says so once and keeps routing, then stops cleanly', async () => {
  await withCliSetup(null, async ({ upstream, args }) => {
    const daemon = new CliProcess([...args, '--port', '0']);
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      assert.ok(url);
      daemon.closeStdout();
      upstream.script('alpha/m1', json('one'), json('two'));
      assert.equal((await chatTo(url)).status, 200);
      // The request's log line is the first write that finds the pipe closed.
      await daemon.waitForLine(/warn: the log output failed \(EPIPE\): .*routing goes on/);
      const second = await chatTo(url);
      assert.equal(second.status, 200);
      assert.match(second.text, /two/);
      daemon.signal('SIGTERM');
      assert.equal(await daemon.exited, 0, daemon.output());
      assert.doesNotMatch(daemon.output(), /uncaught exception/);
    } finally {
      await daemon.kill();
    }
  });
});

test('a set naming only models of no known provider says so at start, not that a key is missing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-unknown-set-'));
  const configFile = path.join(dir, 'config.json');
  await writeFile(configFile, JSON.stringify({ sets: { a: ['nope/x', 'nada/y'] }, activeSet: 'a' }));
  const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', dir, '--config', configFile]);
  try {
    const [line] = await daemon.waitForLine(/set "a": .*/);
    assert.equal(
      line,
      'set "a": 0 models ready — 2 of its models name no provider the router knows (nope/x, nada/y): check the set in config.json',
    );
  } finally {
    await daemon.kill();
    await rm(dir, { recursive: true, force: true });
  }
});

test('SIGHUP (the terminal closed) stops the daemon in order: state saved, lock and daemon.json removed', async () => {
  await withCliSetup(null, async ({ stateDir, args }) => {
    const daemon = new CliProcess([...args, '--port', '0']);
    try {
      await daemon.waitForLine(URL_LINE);
      assert.deepEqual((await readdir(stateDir)).filter((name) => name.startsWith('daemon.')).sort(), [
        'daemon.json',
        'daemon.lock',
      ]);
      daemon.signal('SIGHUP');
      await daemon.waitForLine(/SIGHUP: finishing in-flight requests and saving state/);
      assert.equal(await daemon.exited, 0, daemon.output());
      assert.match(daemon.output(), /stopped$/m);
      assert.deepEqual(
        (await readdir(stateDir)).filter((name) => name.startsWith('daemon.')),
        [],
      );
    } finally {
      await daemon.kill();
    }
  });
});

test('two stop signals at once are one interrupt (npm and bash both pass a Ctrl-C on): the daemon stops in order', async () => {
  await withCliSetup(null, async ({ stateDir, args }) => {
    const daemon = new CliProcess([...args, '--port', '0']);
    try {
      await daemon.waitForLine(URL_LINE);
      // Two kinds: the kernel merges a second SIGINT still pending into the first. Both are pending at once,
      // so either may be handled first; only a Ctrl-C's line offers the second press.
      daemon.signal('SIGINT');
      daemon.signal('SIGTERM');
      assert.equal(await daemon.exited, 0, daemon.output());
      assert.match(
        daemon.output(),
        /SIGINT: finishing in-flight requests and saving state \(press Ctrl-C again to exit now\)|SIGTERM: finishing in-flight requests and saving state$/m,
      );
      assert.match(daemon.output(), /stopped$/m);
      assert.doesNotMatch(daemon.output(), /exiting now/);
      assert.deepEqual(
        (await readdir(stateDir)).filter((name) => name.startsWith('daemon.')),
        [],
      );
    } finally {
      await daemon.kill();
    }
  });
});

test('an FCM_ROUTER_PORT that is no port is refused with exit 2, naming the variable and its value', async () => {
  await withCliSetup(null, async ({ dir }) => {
    // A state folder that cannot be made: the refusal comes before the folder is looked at, and a daemon
    // that took the default port instead could not start either.
    const blocker = path.join(dir, 'blocker');
    await writeFile(blocker, 'x');
    const stateDir = path.join(blocker, 'state');
    const result = await runCli(['daemon', '--state-dir', stateDir], { env: { FCM_ROUTER_PORT: 'abc' } });
    assert.equal(result.code, 2, result.output);
    assert.match(
      result.output,
      /^fcm-router: FCM_ROUTER_PORT must be a port number \(0-65535\), got "abc"$/m,
    );
    assert.match(result.output, /Usage:/);
  });
});

test('a port in use is named as FCM_ROUTER_PORT gave it', async () => {
  await withCliSetup(null, async ({ args }) => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await runCli(args, { env: { FCM_ROUTER_PORT: String(port) } });
      assert.equal(result.code, 1, result.output);
      assert.match(result.output, new RegExp(`fcm-router: port ${port} is already in use`));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

test('a lock whose live pid is no fcm-router (pid reused after a crash) is taken over with a line saying so', async () => {
  await withCliSetup(null, async ({ stateDir, args }) => {
    // This test's own process: alive, and not a router at the URL the lock names.
    const url = await deadUrl();
    await mkdir(stateDir, { recursive: true });
    const lock = { pid: process.pid, startedAt: 1, port: Number(new URL(url).port), url, nonce: 'x' };
    await writeFile(path.join(stateDir, 'daemon.lock'), JSON.stringify(lock));
    const daemon = new CliProcess([...args, '--port', '0']);
    try {
      await daemon.waitForLine(URL_LINE);
      await daemon.waitForLine(
        new RegExp(`took over the lock of .*: pid ${process.pid} holds it but no fcm-router answers for it`),
      );
      const status = await runCli(['status', '--state-dir', stateDir]);
      assert.equal(status.code, 0, status.output);
      daemon.signal('SIGTERM');
      assert.equal(await daemon.exited, 0, daemon.output());
    } finally {
      await daemon.kill();
    }
  });
});

test('the start banner names the config file, and says when it is not there yet (a --config with a typo)', async () => {
  await withCliSetup(null, async ({ dir, stateDir, configFile, args }) => {
    const existing = new CliProcess([...args, '--port', '0']);
    try {
      const [line] = await existing.waitForLine(/^ {2}config: .*/);
      assert.equal(line, `  config:    ${configFile}`);
    } finally {
      await existing.kill();
    }
    const typo = path.join(dir, 'typo.json');
    const missing = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', typo]);
    try {
      const [line] = await missing.waitForLine(/^ {2}config: .*/);
      assert.equal(line, `  config:    ${typo} (not there yet: defaults, written when you save a change)`);
      await missing.waitForLine(URL_LINE);
    } finally {
      await missing.kill();
    }
    await assert.rejects(readFile(typo), 'starting writes no config');
  });
});

test('a --config or --state-dir naming nothing is a bad command line (exit 2), not the default in silence', async () => {
  // Should one be taken for the default, it stays in this folder and is stopped.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-empty-path-'));
  const env = { HOME: dir, FCM_ROUTER_STATE_DIR: path.join(dir, 'state') };
  const runs = [
    ['daemon', '--port', '0', '--config', ''],
    ['daemon', '--port', '0', '--state-dir', ''],
    ['status', '--state-dir', ' '],
    ['set-key', 'groq', '--config', ''],
    ['import-fcm', '--config=', '--dry-run'],
    ['setup', 'codex', '--state-dir', ''],
  ];
  try {
    for (const argv of runs) {
      const cli = new CliProcess(argv, { env });
      try {
        assert.equal(await cli.exited, 2, `${argv.join(' ')}: ${cli.output()}`);
        assert.match(cli.output(), /--(config|state-dir) needs a (file|folder), got " ?"/);
      } finally {
        await cli.kill();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
