import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigInput } from '../config/schema.js';
import { deferred } from '../test-support/deferred.js';
import { CliProcess, runCli } from '../test-support/cli-process.js';
import { after, json } from '../test-support/upstream-behaviours.js';
import { chatTo, withCliSetup } from '../test-support/cli-setup.js';

const URL_LINE = /listening on (http:\/\/127\.0\.0\.1:(\d+))/;

test('daemon: prints its URL, logs one line per request, finishes an in-flight request on SIGTERM and exits 0', async () => {
  await withCliSetup(null, async ({ stateDir, configFile, upstream }) => {
    const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      assert.ok(url);
      const held = deferred();
      upstream.script('alpha/m1', json('quick'), after(held.promise, json('slow')));
      const first = await chatTo(url);
      assert.equal(first.status, 200);
      await daemon.waitForLine(/ served 200 fcm → alpha\/m1 1 attempt /);

      const inFlight = chatTo(url);
      await upstream.nextCall('alpha/m1', 2);
      daemon.signal('SIGTERM');
      // The answer comes only once the daemon has begun to stop.
      await daemon.waitForLine(/SIGTERM: finishing in-flight requests/);
      held.resolve();
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
  await withCliSetup(null, async ({ stateDir, configFile }) => {
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

test('stop returns once the daemon has finished its in-flight request and freed the state folder', async () => {
  await withCliSetup(null, async ({ stateDir, configFile, upstream }) => {
    // The request is held while a second CLI process starts: no deadline of the router's may end it first.
    const config = JSON.parse(await readFile(configFile, 'utf8')) as ConfigInput;
    const failover = { ...config.router?.failover, requestTimeoutMs: 120_000, totalBudgetMs: 240_000 };
    await writeFile(configFile, JSON.stringify({ ...config, router: { ...config.router, failover } }));
    const args = ['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile];
    const daemon = new CliProcess(args);
    let next: CliProcess | null = null;
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      assert.ok(url);
      const held = deferred();
      upstream.script('alpha/m1', after(held.promise, json('slow')));
      const inFlight = chatTo(url);
      await upstream.nextCall('alpha/m1', 1);

      const stop = new CliProcess(['stop', '--state-dir', stateDir]);
      await stop.waitForLine(/^stopping fcm-router at .*: requests in flight finish first$/);
      // The daemon no longer listens but still owes the agent its answer: stop must wait for it.
      await daemon.waitForLine(/SIGTERM: finishing in-flight requests/);
      held.resolve();
      assert.equal(await stop.exited, 0, stop.output());
      assert.match(stop.output(), /stopped$/);
      assert.equal((await inFlight).status, 200);
      for (const file of ['daemon.lock', 'daemon.json']) {
        await assert.rejects(readFile(path.join(stateDir, file)), { code: 'ENOENT' }, `${file} left behind`);
      }
      // What `fcm-router stop && fcm-router daemon` does: the next daemon starts at once.
      next = new CliProcess(args);
      await next.waitForLine(URL_LINE);
      assert.doesNotMatch(next.output(), /took over|refusing/);
    } finally {
      await Promise.all([daemon.kill(), next?.kill()]);
    }
  });
});

test('an invalid config (unknown key) makes the daemon refuse to start with exit 1, naming the JSON path', async () => {
  await withCliSetup(
    { router: { failover: { requestTimeoutMs: 1000, retryForever: true } } },
    async ({ stateDir, configFile }) => {
      const result = await runCli(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
      assert.equal(result.code, 1, result.output);
      assert.match(result.output, /refusing to start/);
      assert.match(result.output, /router\.failover\.retryForever: unknown key/);
    },
  );
});

test('--help after every command prints that command’s usage and exits 0', async () => {
  for (const command of ['daemon', 'status', 'stop', 'pause', 'resume', 'reset', 'set-key']) {
    const result = await runCli([command, '--help']);
    assert.equal(result.code, 0, `${command} --help: ${result.output}`);
    assert.match(result.output, new RegExp(`^Usage: fcm-router ${command}\\b`), command);
  }
});

test('a refused command line says what is wrong, then shows that command’s usage alone, and exits 2', async () => {
  const reset = await runCli(['reset']);
  assert.equal(reset.code, 2, reset.output);
  assert.match(
    reset.output,
    /^fcm-router: "reset" needs a model \(provider\/model\)\n\nUsage: fcm-router reset </,
  );
  assert.doesNotMatch(reset.output, /fcm-router daemon/, 'not every command’s usage');
  const status = await runCli(['status', '--bogus']);
  assert.equal(status.code, 2, status.output);
  assert.match(status.output, /^fcm-router: "status" has no option --bogus\n\nUsage: fcm-router status /);
  const unknown = await runCli(['launch']);
  assert.equal(unknown.code, 2, unknown.output);
  assert.match(unknown.output, /unknown command "launch"[^]*fcm-router daemon[^]*fcm-router setup/);
});

/** A pid that surely belongs to no process: one of a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  assert.ok(child.pid);
  return child.pid;
}

test('one daemon per state dir: a second exits 1 naming the first and its URL; status and stop still find the first', async () => {
  await withCliSetup(null, async ({ stateDir, configFile }) => {
    const first = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    try {
      const [, url] = await first.waitForLine(URL_LINE);
      const daemonFile = await readFile(path.join(stateDir, 'daemon.json'), 'utf8');
      const second = await runCli(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
      assert.equal(second.code, 1, second.output);
      assert.match(second.output, /refusing to start: another fcm-router already serves the state folder/);
      assert.ok(second.output.includes(`at ${url} (pid `), second.output);
      assert.equal(await readFile(path.join(stateDir, 'daemon.json'), 'utf8'), daemonFile, 'left untouched');

      const status = await runCli(['status', '--state-dir', stateDir]);
      assert.equal(status.code, 0, status.output);
      assert.ok(status.output.includes(`running at ${url}`), status.output);
      const stop = await runCli(['stop', '--state-dir', stateDir]);
      assert.equal(stop.code, 0, stop.output);
      assert.equal(await first.exited, 0);
    } finally {
      await first.kill();
    }
  });
});

test('a lock left by a dead daemon is taken over with a line saying so', async () => {
  await withCliSetup(null, async ({ stateDir, configFile }) => {
    const pid = await deadPid();
    await mkdir(stateDir, { recursive: true });
    await writeFile(
      path.join(stateDir, 'daemon.lock'),
      JSON.stringify({ pid, startedAt: 1, port: 19999, url: 'http://127.0.0.1:19999', nonce: 'x' }),
    );
    const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    try {
      await daemon.waitForLine(URL_LINE);
      await daemon.waitForLine(
        new RegExp(`took over the lock of .*: fcm-router pid ${pid} .* no longer running`),
      );
      daemon.signal('SIGTERM');
      assert.equal(await daemon.exited, 0, daemon.output());
    } finally {
      await daemon.kill();
    }
  });
});

test('a state dir that cannot be written: the daemon refuses to start naming the folder and what to do', async () => {
  await withCliSetup(null, async ({ dir, configFile }) => {
    // Root ignores file modes: a file where the folder should be is the unwritable folder here.
    const blocker = path.join(dir, 'blocker');
    await writeFile(blocker, '');
    const stateDir = path.join(blocker, 'state');
    const result = await runCli(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    assert.equal(result.code, 1, result.output);
    assert.match(result.output, /refusing to start: cannot write to the state folder/);
    assert.ok(result.output.includes(stateDir), result.output);
    assert.match(result.output, /--state-dir or FCM_ROUTER_STATE_DIR/);
    assert.doesNotMatch(result.output, /\n\s+at /, 'no stack trace');
  });
});

test('a proxy variable that is not a proxy URL: the daemon refuses to start naming it, not its value', async () => {
  await withCliSetup(null, async ({ stateDir, configFile }) => {
    const args = ['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile];
    const result = await runCli(args, { env: { HTTPS_PROXY: 'ftp://me:s3cret@proxy:21' } });
    assert.equal(result.code, 1, result.output);
    assert.match(
      result.output,
      /refusing to start: HTTPS_PROXY is not a proxy URL: set it as http:\/\/host:port/,
    );
    assert.ok(!result.output.includes('s3cret'), result.output);
    assert.doesNotMatch(result.output, /\n\s+at /, 'no stack trace');
  });
});

test('pause, resume, reset and set-key reach the running daemon with its token; the key is never printed', async () => {
  await withCliSetup(null, async ({ stateDir, configFile, upstream }) => {
    const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      assert.ok(url);
      upstream.always('alpha/m1', json('ok'));

      const pause = await runCli(['pause', '--state-dir', stateDir]);
      assert.equal(pause.code, 0, pause.output);
      assert.match(pause.output, /routing paused/);
      assert.equal((await chatTo(url)).status, 503);
      const resume = await runCli(['resume', '--state-dir', stateDir]);
      assert.equal(resume.code, 0, resume.output);
      assert.equal((await chatTo(url)).status, 200);

      const reset = await runCli(['reset', 'alpha/m1', '--state-dir', stateDir]);
      assert.equal(reset.code, 0, reset.output);
      assert.match(reset.output, /alpha\/m1: nothing to reset/);
      const unknown = await runCli(['reset', 'nope/x', '--state-dir', stateDir]);
      assert.equal(unknown.code, 1, unknown.output);
      assert.match(unknown.output, /unknown model "nope\/x"/);

      const canary = 'sk-cli-canary-7f3a';
      const setKey = await runCli(['set-key', 'alpha', '--state-dir', stateDir], { stdin: `${canary}\n` });
      assert.equal(setKey.code, 0, setKey.output);
      assert.match(setKey.output, /key of alpha saved/);
      assert.ok(!setKey.output.includes(canary), 'the key is not echoed');
      assert.equal((await chatTo(url)).status, 200);
      assert.equal(upstream.calls.at(-1)?.headers.authorization, `Bearer ${canary}`);
      assert.ok(!daemon.output().includes(canary), 'nor logged by the daemon');
      const empty = await runCli(['set-key', 'alpha', '--state-dir', stateDir], { stdin: '\n' });
      assert.equal(empty.code, 1, empty.output);
      assert.match(empty.output, /no key on standard input; nothing saved/);
      assert.equal((await chatTo(url)).status, 200);
      assert.equal(upstream.calls.at(-1)?.headers.authorization, `Bearer ${canary}`, 'the key stays');
      const garbled = await runCli(['set-key', 'alpha', '--state-dir', stateDir], {
        stdin: 'sk-clé pasted\n',
      });
      assert.equal(garbled.code, 1, garbled.output);
      assert.match(garbled.output, /not saved: an API key is printable ASCII without spaces or line breaks/);
      assert.equal((await chatTo(url)).status, 200);
      assert.equal(upstream.calls.at(-1)?.headers.authorization, `Bearer ${canary}`, 'the key stays');
      const wrong = await runCli(['set-key', 'nobody', '--state-dir', stateDir], { stdin: 'k' });
      assert.equal(wrong.code, 1);
      assert.match(wrong.output, /unknown provider "nobody"/);
    } finally {
      await daemon.kill();
    }
  });
  await withCliSetup(null, async ({ stateDir }) => {
    const result = await runCli(['pause', '--state-dir', stateDir]);
    assert.equal(result.code, 3, result.output);
    assert.match(result.output, /not running/);
  });
});

test('SIGTERM exits 1, saying so, when the final save of the state fails', async () => {
  await withCliSetup(null, async ({ stateDir, configFile, upstream }) => {
    const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      assert.ok(url);
      // A folder where the history file goes: no write of it can succeed, as root too.
      const blocked = path.join(stateDir, 'history.json');
      await rm(blocked, { force: true });
      await mkdir(blocked);
      await writeFile(path.join(blocked, 'keep'), '');
      upstream.always('alpha/m1', json('ok'));
      assert.equal((await chatTo(url)).status, 200);
      daemon.signal('SIGTERM');
      assert.equal(await daemon.exited, 1, daemon.output());
      assert.match(daemon.output(), /error while stopping: state file .*history\.json was not saved/);
    } finally {
      await daemon.kill();
    }
  });
});

test('an activeSet naming no set, in a config without sets, makes the daemon refuse to start naming activeSet', async () => {
  await withCliSetup({ activeSet: 'nope' }, async ({ args }) => {
    const daemon = new CliProcess([...args, '--port', '0']);
    try {
      assert.equal(await daemon.exited, 1, daemon.output());
      assert.match(daemon.output(), /refusing to start/);
      assert.match(daemon.output(), /activeSet: names no set: without "sets" the one set is "default"/);
    } finally {
      await daemon.kill();
    }
  });
});
