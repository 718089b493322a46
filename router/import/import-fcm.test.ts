import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../config/resolve-config.js';
import { parseConfig, type ConfigInput } from '../config/schema.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { runCli } from '../test-support/cli-process.js';
import { parseFcmConfig } from './fcm-config.js';
import { planImport } from './import-plan.js';

const SAMPLE = fileURLToPath(new URL('./fixtures/free-coding-models.sample.json', import.meta.url));
const KNOWN = new Set(['groq', 'cerebras', 'sambanova', 'nvidia', 'openrouter']);

async function sample() {
  const parsed = parseFcmConfig(await readFile(SAMPLE, 'utf8'));
  assert.ok(parsed.ok);
  return parsed.config;
}

test('a free-coding-models config is read: key lists, providers switched off, sets by priority', async () => {
  assert.deepEqual(await sample(), {
    keys: {
      groq: { kind: 'keys', keys: ['gsk_sample_one', 'gsk_sample_two'] },
      cerebras: { kind: 'keys', keys: ['csk_sample'] },
      'github-models': { kind: 'keys', keys: ['github_pat_sample'] },
    },
    disabled: ['sambanova', 'nvidia'],
    sets: {
      'fast-coding': [
        'groq/llama-3.3-70b-versatile',
        'cerebras/gpt-oss-120b',
        'github-models/openai/gpt-4.1',
      ],
    },
    activeSet: 'fast-coding',
  });
  const bad = parseFcmConfig('{"apiKeys": [], "router": {"sets": {"x": {"models": [{"provider": 1}]}}}}');
  assert.equal(bad.ok, false);
  if (!bad.ok)
    assert.deepEqual(bad.issues.map((issue) => `${issue.path}: ${issue.message}`).sort(), [
      'apiKeys: an object of provider id → key or list of keys',
      'router.sets.x.models.0.model: Required',
      'router.sets.x.models.0.provider: a provider id (text)',
    ]);
  const shapes = parseFcmConfig(
    '{"router": {"sets": {"x": [{"provider": "groq"}], "y": {"models": "groq"}}}}',
  );
  assert.equal(shapes.ok, false);
  if (!shapes.ok)
    assert.deepEqual(shapes.issues.map((issue) => `${issue.path}: ${issue.message}`).sort(), [
      'router.sets.x: a set: {"models": [{"provider", "model"}, …]}',
      'router.sets.y.models: a list of {"provider", "model"} entries',
    ]);
  assert.equal(parseFcmConfig('{ not json').ok, false);
});

test('the plan adds what is new, keeps what exists without --force, and names keys by fingerprint only', async () => {
  const fcm = await sample();
  const current: ConfigInput = {
    providers: { cerebras: { apiKey: 'csk_mine' }, nvidia: { enabled: true } },
    sets: { 'fast-coding': ['cerebras/gpt-oss-120b'] },
    activeSet: 'fast-coding',
  };
  const plan = planImport(fcm, { current, effective: {}, known: KNOWN, force: false });
  const text = plan.lines.join('\n');
  assert.ok(!text.includes('gsk_sample') && !text.includes('csk_'), 'no key in the report');
  assert.deepEqual(plan.lines, [
    `+ groq: 2 keys (${keyFingerprint('gsk_sample_one')}, ${keyFingerprint('gsk_sample_two')})`,
    `! cerebras: has 1 key (${keyFingerprint('csk_mine')}), kept (--force replaces them with 1 key (${keyFingerprint('csk_sample')}))`,
    '- github-models: not a provider fcm-router knows, skipped',
    '+ sambanova: disabled',
    '! nvidia: enabled here, kept (--force disables it)',
    '- set fast-coding: github-models/openai/gpt-4.1 dropped (not a provider fcm-router knows)',
    '! set fast-coding: exists here, kept (--force replaces it with 2 models)',
  ]);
  assert.deepEqual(plan.next.providers, {
    cerebras: { apiKey: 'csk_mine' },
    nvidia: { enabled: true },
    groq: { apiKey: 'gsk_sample_one', apiKeys: ['gsk_sample_two'] },
    sambanova: { enabled: false },
  });
  assert.deepEqual(plan.next.sets, current.sets);

  const forced = planImport(fcm, { current, effective: {}, known: KNOWN, force: true });
  assert.deepEqual(forced.next.providers?.['cerebras'], { apiKey: 'csk_sample' });
  assert.equal(forced.next.providers?.['nvidia']?.enabled, false);
  assert.deepEqual(forced.next.sets?.['fast-coding'], [
    'groq/llama-3.3-70b-versatile',
    'cerebras/gpt-oss-120b',
  ]);

  const again = planImport(fcm, { current: forced.next, effective: {}, known: KNOWN, force: false });
  assert.equal(again.changed, false, 'importing twice changes nothing');
});

test('fcm-router import-fcm: a dry run writes nothing; the import writes a valid 0600 config a second run leaves alone', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-import-'));
  const configPath = path.join(dir, 'config.json');
  try {
    await writeFile(configPath, JSON.stringify({ providers: { groq: { enabled: true } } }), { mode: 0o600 });
    const dry = await runCli(['import-fcm', SAMPLE, '--config', configPath, '--dry-run']);
    assert.equal(dry.code, 0, dry.output);
    assert.match(dry.output, /\+ groq: 2 keys/);
    assert.match(dry.output, /\+ activeSet: fast-coding/);
    assert.match(dry.output, /Dry run: nothing written/);
    assert.deepEqual(JSON.parse(await readFile(configPath, 'utf8')), {
      providers: { groq: { enabled: true } },
    });
    assert.ok(!dry.output.includes('gsk_sample'), 'keys never printed');

    const done = await runCli(['import-fcm', SAMPLE, '--config', configPath]);
    assert.equal(done.code, 0, done.output);
    const written = JSON.parse(await readFile(configPath, 'utf8')) as ConfigInput;
    assert.deepEqual(written.providers?.['groq'], {
      enabled: true,
      apiKey: 'gsk_sample_one',
      apiKeys: ['gsk_sample_two'],
    });
    assert.equal(written.activeSet, 'fast-coding');
    assert.equal((await stat(configPath)).mode & 0o777, 0o600);

    const second = await runCli(['import-fcm', SAMPLE, '--config', configPath]);
    assert.equal(second.code, 0);
    assert.match(second.output, /Nothing to change/);

    const missing = await runCli(['import-fcm', path.join(dir, 'nope.json'), '--config', configPath]);
    assert.equal(missing.code, 1);
    assert.match(missing.output, /no free-coding-models config at/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('fcm-router import-fcm on a file that is not JSON names the line and column, never a part of a key', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-import-'));
  const file = path.join(dir, 'f.json');
  const configPath = path.join(dir, 'config.json');
  try {
    await writeFile(file, '{\n "apiKeys": {\n  "groq": \'gsk_SINGLEQUOTED123456\'\n }\n}\n');
    const run = await runCli(['import-fcm', file, '--config', configPath]);
    assert.equal(run.code, 1, run.output);
    assert.match(run.output, /invalid JSON at line 3, column 11: Unexpected token '''/);
    assert.doesNotMatch(run.output, /gsk|SINGL/);
    await assert.rejects(readFile(configPath), 'nothing written');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('fcm-router import-fcm on ~/.free-coding-models.json: "${NVIDIA_API_KEY}" becomes the variable the key is read from, a bad key skips only its provider', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'fcm-import-home-'));
  const configPath = path.join(home, 'config.json');
  try {
    const apiKeys = { nvidia: '${NVIDIA_API_KEY}', groq: 5, cerebras: 'csk_real' };
    await writeFile(path.join(home, '.free-coding-models.json'), JSON.stringify({ apiKeys }));
    const run = await runCli(['import-fcm', '--config', configPath], { env: { HOME: home } });
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /\+ nvidia: key from \$NVIDIA_API_KEY\n/);
    assert.match(
      run.output,
      /- groq: skipped \(apiKeys\.groq: a key must be a string or a list of strings, not a number\)/,
    );
    assert.match(run.output, /\+ cerebras: 1 key/);
    const written = JSON.parse(await readFile(configPath, 'utf8')) as ConfigInput;
    assert.deepEqual(written.providers, {
      nvidia: { apiKeyEnv: 'NVIDIA_API_KEY' },
      cerebras: { apiKey: 'csk_real' },
    });
    const parsed = parseConfig(written);
    assert.ok(parsed.ok);
    const nvidia = resolveConfig(parsed.config, { NVIDIA_API_KEY: 'nvapi-from-env' }).providers.get('nvidia');
    assert.equal(nvidia?.apiKey, 'nvapi-from-env', 'the key in the environment is the one sent');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('an active set the import would change is kept without --force, with a line saying so', async () => {
  const fcm = await sample();
  const current: ConfigInput = {
    sets: { mine: ['groq/llama-3.3-70b-versatile'], 'fast-coding': ['groq/llama-3.3-70b-versatile'] },
    activeSet: 'mine',
  };
  const plan = planImport(fcm, { current, effective: {}, known: KNOWN, force: false });
  assert.ok(
    plan.lines.includes('! activeSet: mine kept (--force makes it fast-coding)'),
    plan.lines.join('\n'),
  );
  assert.ok(plan.lines.includes('! set fast-coding: exists here, kept (--force replaces it with 2 models)'));
  assert.equal(plan.next.activeSet, 'mine');
  assert.equal(
    planImport(fcm, { current, effective: {}, known: KNOWN, force: true }).next.activeSet,
    'fast-coding',
  );
});

test('fcm-router import-fcm into a config without sets keeps its automatic set default beside the imported one', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-import-default-'));
  const configPath = path.join(dir, 'config.json');
  const fcmFile = path.join(dir, 'free-coding-models.json');
  const models = [
    { provider: 'groq', model: 'llama-3.3-70b-versatile' },
    { provider: 'cerebras', model: 'gpt-oss-120b' },
  ];
  try {
    const before: ConfigInput = { providers: { groq: { apiKey: 'gsk_mine' } } };
    await writeFile(configPath, JSON.stringify(before), { mode: 0o600 });
    await writeFile(
      fcmFile,
      JSON.stringify({ router: { activeSet: 'fast-coding', sets: { 'fast-coding': { models } } } }),
    );
    const parsed = parseConfig(before);
    assert.ok(parsed.ok);
    // The CLI's environment holds no provider keys: resolved in an empty one, as the import resolves it.
    const automatic = resolveConfig(parsed.config, {}).sets['default'] ?? [];
    assert.ok(automatic.length > 2);

    const done = await runCli(['import-fcm', fcmFile, '--config', configPath]);
    assert.equal(done.code, 0, done.output);
    assert.match(done.output, /\+ set fast-coding: 2 models\n/);
    assert.ok(
      done.output.includes(`+ set default: ${automatic.length} models (the automatic set as it stood`),
      done.output,
    );
    const written = JSON.parse(await readFile(configPath, 'utf8')) as ConfigInput;
    assert.deepEqual(written.sets, {
      default: automatic,
      'fast-coding': ['groq/llama-3.3-70b-versatile', 'cerebras/gpt-oss-120b'],
    });
    assert.equal(written.activeSet, 'fast-coding');

    // A file that names a set `default` of its own: that one is imported, the automatic one is not kept.
    await writeFile(configPath, JSON.stringify(before));
    await writeFile(fcmFile, JSON.stringify({ router: { sets: { default: { models } } } }));
    const own = await runCli(['import-fcm', fcmFile, '--config', configPath]);
    assert.equal(own.code, 0, own.output);
    assert.deepEqual((JSON.parse(await readFile(configPath, 'utf8')) as ConfigInput).sets, {
      default: ['groq/llama-3.3-70b-versatile', 'cerebras/gpt-oss-120b'],
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an import into a config with sets of its own writes no automatic set', async () => {
  const fcm = await sample();
  const current: ConfigInput = { sets: { mine: ['groq/llama-3.3-70b-versatile'] }, activeSet: 'mine' };
  const effective = { mine: ['groq/llama-3.3-70b-versatile'] };
  const plan = planImport(fcm, { current, effective, known: KNOWN, force: false });
  assert.deepEqual(Object.keys(plan.next.sets ?? {}), ['mine', 'fast-coding']);
  assert.ok(!plan.lines.some((line) => line.includes('set default')), plan.lines.join('\n'));
});
