/**
 * One writer: `import-fcm` and `set-key` with a daemon running go through it, so its config in use and the
 * file agree and the dashboard's next save loses nothing; with none running they write the file
 * themselves, through the same guard.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigResponse } from '../api-types.js';
import type { ConfigInput } from '../config/schema.js';
import { readDaemonFile } from '../daemon/daemon-file.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { CliProcess, runCli } from '../test-support/cli-process.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest, parseReply } from '../test-support/http-client.js';
import { scenarioConfig } from '../test-support/scenario.js';

const SAMPLE = fileURLToPath(new URL('./fixtures/free-coding-models.sample.json', import.meta.url));
const URL_LINE = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** What the sample import adds, as the file must hold it afterwards. */
function assertImported(config: ConfigInput): void {
  assert.deepEqual(config.providers?.['groq'], { apiKey: 'gsk_sample_one', apiKeys: ['gsk_sample_two'] });
  assert.deepEqual(config.providers?.['cerebras'], { apiKey: 'csk_sample' });
  assert.deepEqual(config.providers?.['sambanova'], { enabled: false });
  assert.deepEqual(config.sets?.['fast-coding'], ['groq/llama-3.3-70b-versatile', 'cerebras/gpt-oss-120b']);
}

/** The dashboard's save: the config it shows with one setting changed, sent with the revision it read. */
async function dashboardSave(url: string, stateDir: string, maxAttempts: number): Promise<void> {
  const token = (await readDaemonFile(stateDir))?.token ?? '';
  const shown = parseReply<ConfigResponse>(await httpRequest(`${url}/api/config`));
  const router = { ...shown.config.router, failover: { ...shown.config.router?.failover, maxAttempts } };
  const put = await httpRequest(`${url}/api/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-fcm-token': token, 'if-match': shown.revision },
    body: JSON.stringify({ ...shown.config, router }),
  });
  assert.equal(put.status, 200, put.text);
}

test('import-fcm and set-key while the daemon runs go through it, and the dashboard saves after them lose nothing', async () => {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-one-writer-'));
  const configFile = path.join(dir, 'config.json');
  const stateDir = path.join(dir, 'state');
  const original = scenarioConfig(upstream, { providers: { alpha: ['m1'] } });
  await writeFile(configFile, JSON.stringify(original), { mode: 0o600 });
  const daemon = new CliProcess(['daemon', '--port', '0', '--state-dir', stateDir, '--config', configFile]);
  const onDisk = async () => JSON.parse(await readFile(configFile, 'utf8')) as ConfigInput;
  try {
    const [, url] = await daemon.waitForLine(URL_LINE);
    assert.ok(url);
    const imported = await runCli(['import-fcm', SAMPLE, '--state-dir', stateDir]);
    assert.equal(imported.code, 0, imported.output);
    await dashboardSave(url, stateDir, 2);
    assertImported(await onDisk());
    assert.match(imported.output, /\+ groq: 2 keys/);
    assert.ok(imported.output.includes(`through the fcm-router running at ${url}`), imported.output);
    assert.match(imported.output, /Saved and applied by the running fcm-router: no restart needed/);
    assert.ok(!imported.output.includes('gsk_sample'), 'keys never printed');
    const live = parseReply<ConfigResponse>(await httpRequest(`${url}/api/config`));
    assert.deepEqual(live.config.sets?.['fast-coding'], [
      'groq/llama-3.3-70b-versatile',
      'cerebras/gpt-oss-120b',
    ]);

    const canary = 'sk-or-canary-51d2';
    const setKey = await runCli(['set-key', 'openrouter', '--state-dir', stateDir], { stdin: `${canary}\n` });
    assert.equal(setKey.code, 0, setKey.output);
    assert.match(setKey.output, /key of openrouter saved; the fcm-router running at .* uses it now/);
    // A second key replaces the first: the line names the one gone, by fingerprint, never the key.
    const rotated = await runCli(['set-key', 'openrouter', '--state-dir', stateDir], {
      stdin: 'sk-or-next\n',
    });
    assert.equal(rotated.code, 0, rotated.output);
    assert.ok(
      rotated.output.includes(
        `key of openrouter saved in place of the key ${keyFingerprint(canary)}, which is no longer in the config;`,
      ),
      rotated.output,
    );
    assert.ok(!rotated.output.includes(canary) && !rotated.output.includes('sk-or-next'));
    const back = await runCli(['set-key', 'openrouter', '--state-dir', stateDir], { stdin: `${canary}\n` });
    assert.equal(back.code, 0, back.output);
    await dashboardSave(url, stateDir, 3);
    const after = await onDisk();
    assertImported(after);
    assert.equal(after.providers?.['openrouter']?.apiKey, canary);
    assert.deepEqual(after.providers?.['alpha'], original.providers?.['alpha']);
    assert.equal(after.router?.failover?.maxAttempts, 3);
    assert.equal(after.activeSet, original.activeSet);
    assert.ok(!daemon.output().includes(canary) && !daemon.output().includes('gsk_sample'), 'no key logged');

    daemon.signal('SIGTERM');
    assert.equal(await daemon.exited, 0);
    const groqBefore = (await onDisk()).providers?.['groq']?.apiKey;
    assert.ok(groqBefore);
    const offline = await runCli(['set-key', 'groq', '--state-dir', stateDir, '--config', configFile], {
      stdin: 'gsk-offline\n',
    });
    assert.equal(offline.code, 0, offline.output);
    assert.ok(
      offline.output.includes(
        `key of groq saved in ${configFile} in place of the key ${keyFingerprint(groqBefore)}, which is no longer in the config; fcm-router uses it when it starts`,
      ),
      offline.output,
    );
    const same = await runCli(['set-key', 'groq', '--state-dir', stateDir, '--config', configFile], {
      stdin: 'gsk-offline\n',
    });
    assert.match(same.output, /key of groq saved in .*config\.json \(the same key as before\); fcm-router/);
    const written = await onDisk();
    assert.deepEqual(written.providers?.['groq'], { apiKey: 'gsk-offline', apiKeys: ['gsk_sample_two'] });
    assert.equal(written.providers?.['openrouter']?.apiKey, canary, 'the rest is kept');
  } finally {
    await daemon.kill();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('with a demo running, import-fcm and set-key write the state folder’s own config and say the demo does not use it', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-demo-running-'));
  const configFile = path.join(dir, 'config.json');
  const demoFile = path.join(dir, 'demo', 'config.json');
  const original: ConfigInput = { router: { failover: { maxAttempts: 2 } } };
  await writeFile(configFile, JSON.stringify(original), { mode: 0o600 });
  const daemon = new CliProcess(['daemon', '--demo', '--port', '0', '--state-dir', dir]);
  const onDisk = async () => JSON.parse(await readFile(configFile, 'utf8')) as ConfigInput;
  try {
    const [, url] = await daemon.waitForLine(URL_LINE);
    assert.ok(url);
    const imported = await runCli(['import-fcm', SAMPLE, '--state-dir', dir]);
    assert.equal(imported.code, 0, imported.output);
    assert.ok(imported.output.includes(`Importing ${SAMPLE} into ${configFile}:`), imported.output);
    assert.ok(
      imported.output.includes(
        `The fcm-router running at ${url} is a demo on its own config, so it is unchanged`,
      ),
      imported.output,
    );
    assertImported(await onDisk());

    const canary = 'sk-or-canary-9e07';
    const setKey = await runCli(['set-key', 'openrouter', '--state-dir', dir], { stdin: `${canary}\n` });
    assert.equal(setKey.code, 0, setKey.output);
    assert.ok(
      setKey.output.includes(
        `key of openrouter saved in ${configFile}; the fcm-router running at ${url} is a demo on its own config and does not use it`,
      ),
      setKey.output,
    );
    const after = await onDisk();
    assertImported(after);
    assert.equal(after.providers?.['openrouter']?.apiKey, canary);
    assert.equal(after.router?.failover?.maxAttempts, 2, 'what was there is kept');
    const demo = await readFile(demoFile, 'utf8').catch(() => '');
    assert.ok(!demo.includes(canary) && !demo.includes('gsk_sample'), 'the demo config holds no real key');
  } finally {
    await daemon.kill();
    await rm(dir, { recursive: true, force: true });
  }
});
