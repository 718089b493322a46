import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { demoConfig } from '../demo/demo-config.js';
import {
  loadConfigFile,
  NO_FILE_REVISION,
  saveConfigFile,
  textRevision,
  validateConfig,
  writeConfigGuarded,
} from './config-store.js';
import { DEFAULT_CONFIG } from './schema.js';
import type { ConfigInput } from './schema.js';

async function withTempDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-config-store-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a missing file loads as the defaults', async () => {
  await withTempDir(async (dir) => {
    const result = await loadConfigFile(path.join(dir, 'config.json'));
    assert.deepEqual(result, {
      ok: true,
      raw: {},
      config: DEFAULT_CONFIG,
      existed: false,
      revision: NO_FILE_REVISION,
    });
  });
});

test('save writes pretty JSON with mode 0600 in a 0700 folder, and load reads it back', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'nested', 'config.json');
    const raw: ConfigInput = {
      providers: { groq: { apiKey: 'gsk-1' } },
      router: { failover: { maxAttempts: 2 } },
    };
    await saveConfigFile(file, raw);
    if (process.platform !== 'win32') {
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      assert.equal((await stat(path.dirname(file))).mode & 0o777, 0o700);
    }
    const text = await readFile(file, 'utf8');
    assert.equal(text, `${JSON.stringify(raw, null, 2)}\n`);
    const loaded = await loadConfigFile(file);
    assert.ok(loaded.ok);
    assert.equal(loaded.existed, true);
    assert.deepEqual(loaded.raw, raw);
    assert.equal(loaded.config.router.failover.maxAttempts, 2);
    assert.equal(loaded.config.router.failover.requestTimeoutMs, 15_000);
  });
});

test('saving over a file replaces it whole and leaves no temp file; a loose mode is tightened', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, '{"activeSet": "old"}', { mode: 0o644 });
    await saveConfigFile(file, { activeSet: 'new' });
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { activeSet: 'new' });
    assert.deepEqual(await readdir(dir), ['config.json']);
    if (process.platform !== 'win32') assert.equal((await stat(file)).mode & 0o777, 0o600);
  });
});

test('invalid JSON gives one (root) issue naming the line and column', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, '{\n  "activeSet": "x",\n}\n');
    const result = await loadConfigFile(file);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.path, file);
    assert.equal(result.issues.length, 1);
    assert.equal(result.issues[0]?.path, '(root)');
    assert.match(result.issues[0]?.message ?? '', /line 3,? column 1/);
  });
});

test('a JSON error V8 gives no position for still names its line and column, and never the text', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    for (const [text, place] of [
      ['// c\n{}', 'line 1, column 1'],
      ['{\n  "providers": { "groq": { "apiKey": \'gsk_SINGLEQUOTED123456\' } }\n}', 'line 2, column 38'],
    ] as const) {
      await writeFile(file, text);
      const result = await loadConfigFile(file);
      assert.ok(!result.ok);
      const message = result.issues[0]?.message ?? '';
      assert.ok(message.startsWith(`invalid JSON at ${place}: Unexpected token`), message);
      assert.doesNotMatch(message, /gsk|SINGL|providers|\/\/ c/);
    }
  });
});

test('an unknown key is reported at its path; a custom provider without baseUrl too', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, JSON.stringify({ router: { failover: { maxAtempts: 3 } } }));
    const typo = await loadConfigFile(file);
    assert.ok(!typo.ok);
    assert.deepEqual(typo.issues, [{ path: 'router.failover.maxAtempts', message: 'unknown key' }]);

    await writeFile(file, JSON.stringify({ providers: { myhost: { models: ['m'] } } }));
    const custom = await loadConfigFile(file);
    assert.ok(!custom.ok);
    assert.deepEqual(
      custom.issues.map((issue) => issue.path),
      ['providers.myhost.baseUrl'],
    );
  });
});

test('an empty file loads as the defaults; an unreadable path is an issue, not a throw', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, '\uFEFF  \n');
    assert.deepEqual(await loadConfigFile(file), {
      ok: true,
      raw: {},
      config: DEFAULT_CONFIG,
      existed: true,
      revision: textRevision('\uFEFF  \n'),
    });
    const folder = await loadConfigFile(dir);
    assert.ok(!folder.ok);
    assert.match(folder.issues[0]?.message ?? '', /cannot read/);
  });
});

test('validateConfig runs the schema and the custom-provider checks', () => {
  assert.ok(validateConfig({ providers: { groq: { apiKey: 'k' } } }).ok);
  const bad = validateConfig({ providers: { mine: {} }, activeSet: 'nope', sets: { a: ['groq/x'] } });
  assert.ok(!bad.ok);
  assert.deepEqual(
    bad.issues.map((issue) => issue.path),
    ['activeSet'],
  );
  const custom = validateConfig({ providers: { mine: {} } });
  assert.ok(!custom.ok);
  assert.deepEqual(
    custom.issues.map((issue) => issue.path),
    ['providers.mine.baseUrl', 'providers.mine.models'],
  );
  assert.ok(validateConfig(demoConfig('http://127.0.0.1:40000')).ok, 'the demo config is valid');
});

test('a file with a provider header the HTTP client would refuse, or a reserved id, does not load', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    await writeFile(
      file,
      '{"providers": {"groq": {"headers": {"x-a": "b\\r\\nx-c: d"}}, "__proto__": {"baseUrl": "http://x/v1"}}}',
    );
    const result = await loadConfigFile(file);
    assert.equal(result.ok, false);
    assert.deepEqual(result.ok ? [] : result.issues.map((issue) => issue.path).sort(), [
      'providers.__proto__',
      'providers.groq.headers.x-a',
    ]);
  });
});

test('the guarded writer writes only over the content it read, and names the revision it found instead', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    const missing = await loadConfigFile(file);
    const first = await writeConfigGuarded(file, { activeSet: 'a' }, missing.revision);
    assert.ok(first.ok);
    assert.equal(first.revision, (await loadConfigFile(file)).revision);

    await writeFile(file, '{"activeSet": "by hand"}');
    const stale = await writeConfigGuarded(file, { activeSet: 'b' }, first.revision);
    assert.deepEqual(stale, { ok: false, onDisk: textRevision('{"activeSet": "by hand"}') });
    assert.equal(await readFile(file, 'utf8'), '{"activeSet": "by hand"}', 'the edit is not replaced');
    assert.ok((await writeConfigGuarded(file, { activeSet: 'b' }, stale.ok ? '' : stale.onDisk)).ok);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { activeSet: 'b' });
  });
});

test('a JSON error never quotes the file: a key written there stays out of the message', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, '{"providers": {"groq": {"apiKey": gsk_secret_in_file}}}');
    const result = await loadConfigFile(file);
    assert.ok(!result.ok);
    assert.match(result.issues[0]?.message ?? '', /^invalid JSON/);
    assert.ok(!JSON.stringify(result.issues).includes('gsk_'), JSON.stringify(result.issues));
  });
});
