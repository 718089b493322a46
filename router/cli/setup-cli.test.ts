/**
 * `fcm-router setup` as a user runs it: the real CLI as a child process with a throwaway HOME, finding the
 * real daemon of its state folder for the URL and the window, previewing, writing, undoing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliProcess, runCli } from '../test-support/cli-process.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { scenarioConfig } from '../test-support/scenario.js';

const CODEX = '# mine\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs" # keep\n';

test('setup codex through the CLI: preview, --yes with the daemon’s URL and window, --undo', async () => {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-cli-'));
  const home = path.join(dir, 'home');
  const stateDir = path.join(dir, 'state');
  const configFile = path.join(dir, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify(scenarioConfig(upstream, { providers: { cerebras: ['gpt-oss-120b'] } })),
  );
  const codexFile = path.join(home, '.codex', 'config.toml');
  await mkdir(path.dirname(codexFile), { recursive: true });
  await writeFile(codexFile, CODEX);
  const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
  const setup = (...args: string[]) =>
    runCli(['setup', 'codex', '--state-dir', stateDir, ...args], { env: { HOME: home } });
  try {
    const [, url] = await daemon.waitForLine(/listening on (http:\/\/127\.0\.0\.1:\d+)/);

    const preview = await setup();
    assert.equal(preview.code, 0, preview.output);
    assert.match(preview.output, new RegExp(`\\+ base_url = "${url}/v1"`));
    assert.match(preview.output, /Nothing written; run again with --yes/);
    assert.equal(await readFile(codexFile, 'utf8'), CODEX);

    const write = await setup('--yes');
    assert.equal(write.code, 0, write.output);
    const written = await readFile(codexFile, 'utf8');
    assert.match(written, /^model_context_window = 65000$/m);
    assert.match(written, /^# mine\nmodel = "fcm"\n/);
    assert.match(written, /\[mcp_servers\.docs\]\ncommand = "docs" # keep\n/);
    assert.equal(await readFile(`${codexFile}.fcm-router.bak`, 'utf8'), CODEX);

    const undo = await setup('--undo', '--yes');
    assert.equal(undo.code, 0, undo.output);
    assert.equal(await readFile(codexFile, 'utf8'), CODEX);
    assert.deepEqual(await readdir(path.dirname(codexFile)), ['config.toml']);
  } finally {
    await daemon.kill();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('setup claude-code through the CLI refuses a settings.json that is not JSON, naming it', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-cli-'));
  try {
    const file = path.join(home, '.claude', 'settings.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{ "env": { ');
    const run = await runCli(['setup', 'claude-code', '--yes', '--url', 'http://127.0.0.1:1'], {
      env: { HOME: home },
    });
    assert.equal(run.code, 1);
    assert.ok(run.output.includes(`${file} is not valid JSON`), run.output);
    assert.equal(await readFile(file, 'utf8'), '{ "env": { ');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('setup with a bad --url or FCM_ROUTER_PORT exits 2 like any bad command line, writing nothing', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-cli-'));
  try {
    const runs = [
      { args: ['codex', '--url', 'http://127.0.0.1:19302?x=1'], said: /--url has a query/ },
      { args: ['claude-code', '--url', 'notaurl'], said: /--url must be a URL such as/ },
      { args: ['codex'], env: { FCM_ROUTER_PORT: 'abc' }, said: /FCM_ROUTER_PORT must be a port number/ },
    ];
    for (const { args, env, said } of runs) {
      const run = await runCli(['setup', ...args, '--yes'], { env: { HOME: home, ...env } });
      assert.equal(run.code, 2, run.output);
      assert.match(run.output, said);
      assert.match(run.output, /Usage:/);
    }
    assert.deepEqual(await readdir(home), [], 'nothing written');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('setup names an agent file it cannot read, and what is wrong with it, instead of a raw error', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-cli-'));
  try {
    const file = path.join(home, '.claude', 'settings.json');
    await mkdir(file, { recursive: true });
    const run = await runCli(['setup', 'claude-code', '--yes', '--url', 'http://127.0.0.1:1'], {
      env: { HOME: home },
    });
    assert.equal(run.code, 1, run.output);
    assert.ok(
      run.output.includes(
        `fcm-router: cannot read ${file} (it is a folder, not a file); nothing was changed`,
      ),
      run.output,
    );
    assert.doesNotMatch(run.output, /EISDIR|illegal operation/);
    assert.deepEqual(await readdir(path.dirname(file)), ['settings.json']);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('an undo that fails part-way takes back what it wrote, and says nothing was changed', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-cli-'));
  try {
    const file = path.join(home, '.codex', 'config.toml');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, CODEX);
    const setup = (...args: string[]) =>
      runCli(['setup', 'codex', '--yes', '--url', 'http://127.0.0.1:1', ...args], { env: { HOME: home } });
    assert.equal((await setup()).code, 0);
    const written = await readFile(file, 'utf8');
    // Where setup keeps its note on a file it created stands a folder: the undo fails after its first write.
    const note = `${file}.fcm-router.created`;
    await mkdir(note);
    const undo = await setup('--undo');
    assert.equal(undo.code, 1, undo.output);
    assert.ok(
      undo.output.includes(`cannot read ${note} (it is a folder, not a file); nothing was changed`),
      undo.output,
    );
    assert.equal(await readFile(file, 'utf8'), written, 'the file is as setup left it');
    assert.equal(await readFile(`${file}.fcm-router.bak`, 'utf8'), CODEX, 'the backup is kept');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test(
  'setup in an agent folder it may not write names the file and changes nothing',
  {
    // Root is never refused a write, so the refusal cannot happen there (CI runs as root): reported as
    // skipped, not passed. The test before this one forces a failure part-way as any user and checks it is undone.
    skip: process.getuid?.() === 0 ? 'root may write anywhere' : false,
  },
  async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-cli-'));
    const folder = path.join(home, '.codex');
    try {
      await mkdir(folder);
      await writeFile(path.join(folder, 'config.toml'), CODEX);
      await chmod(folder, 0o555);
      const run = await runCli(['setup', 'codex', '--yes', '--url', 'http://127.0.0.1:1'], {
        env: { HOME: home },
      });
      assert.equal(run.code, 1, run.output);
      const backup = path.join(folder, 'config.toml.fcm-router.bak');
      assert.ok(
        run.output.includes(`cannot write ${backup} (permission denied); nothing was changed`),
        run.output,
      );
      assert.doesNotMatch(run.output, /EACCES/);
      assert.deepEqual(await readdir(folder), ['config.toml']);
      assert.equal(await readFile(path.join(folder, 'config.toml'), 'utf8'), CODEX);
    } finally {
      await chmod(folder, 0o755).catch(() => undefined);
      await rm(home, { recursive: true, force: true });
    }
  },
);
