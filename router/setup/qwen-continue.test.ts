/**
 * Qwen Code's settings.json and Continue's config.yaml: what setup puts in each, in the shape each agent
 * reads (read back with a YAML parser for Continue), what it keeps, and what it refuses to touch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { options, place, withHome } from '../test-support/setup-home.js';
import { applyContinue, stripContinue } from './continue-yaml.js';
import { applyQwen } from './qwen-settings.js';
import { runSetup } from './setup-command.js';

const target = { origin: 'http://127.0.0.1:5000', contextWindow: 65_000 };
const QWEN = {
  agent: 'qwen-code',
  file: '.qwen/settings.json',
  text: '{\n  "modelProviders": { "openai": [{ "id": "gpt-4o", "envKey": "OPENAI_API_KEY" }] },\n  "env": { "OPENAI_API_KEY": "sk-x" },\n  "ui": { "theme": "GitHub" }\n}\n',
};

test('qwen-code: our provider entry after theirs, its key variable, the openai auth type and the model', () => {
  const settings = JSON.parse(applyQwen(QWEN.text, 'settings.json', target)) as Record<string, unknown>;
  assert.deepEqual(settings, {
    modelProviders: {
      openai: [
        { id: 'gpt-4o', envKey: 'OPENAI_API_KEY' },
        {
          id: 'fcm',
          name: 'fcm-router',
          baseUrl: 'http://127.0.0.1:5000/v1',
          envKey: 'FCM_ROUTER_KEY',
          generationConfig: { contextWindowSize: 65_000 },
        },
      ],
    },
    env: { OPENAI_API_KEY: 'sk-x', FCM_ROUTER_KEY: 'fcm-local' },
    ui: { theme: 'GitHub' },
    security: { auth: { selectedType: 'openai' } },
    model: { name: 'fcm' },
  });
  // Run again for another router: our entry is replaced, not added twice.
  const again = JSON.parse(
    applyQwen(JSON.stringify(settings), 'settings.json', {
      origin: 'http://127.0.0.1:6000',
      contextWindow: null,
    }),
  ) as { modelProviders: { openai: { id: string; baseUrl?: string }[] } };
  assert.deepEqual(
    again.modelProviders.openai.map((entry) => [entry.id, entry.baseUrl]),
    [
      ['gpt-4o', undefined],
      ['fcm', 'http://127.0.0.1:6000/v1'],
    ],
  );
});

test('qwen-code: undo after the user changed the file keeps their change and removes ours, the auth type setup set too', async () => {
  await withHome(async (home) => {
    const file = await place(home, QWEN);
    await runSetup(options(home, { agent: 'qwen-code', yes: true }));
    const edited = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(
      file,
      JSON.stringify({ ...edited, $version: 4, tools: { approvalMode: 'yolo' } }, null, 2),
    );
    await runSetup(options(home, { agent: 'qwen-code', undo: true, yes: true }));
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), {
      modelProviders: { openai: [{ id: 'gpt-4o', envKey: 'OPENAI_API_KEY' }] },
      env: { OPENAI_API_KEY: 'sk-x' },
      ui: { theme: 'GitHub' },
      $version: 4,
      tools: { approvalMode: 'yolo' },
    });
  });
});

test('qwen-code: a modelProviders.openai that is not a list is refused untouched', async () => {
  await withHome(async (home) => {
    const text = '{ "modelProviders": { "openai": { "protocol": "openai", "models": [] } } }\n';
    const file = await place(home, { ...QWEN, text });
    const run = options(home, { agent: 'qwen-code', yes: true });
    assert.equal(await runSetup(run), 1);
    assert.match(run.out.join('\n'), /modelProviders\.openai is not a list; nothing was changed/);
    assert.equal(await readFile(file, 'utf8'), text);
  });
});

const CONTINUE_TEXT = [
  'name: Mine',
  'version: 0.0.1',
  'schema: v1',
  '# models at the left edge',
  'models:',
  '- name: Llama',
  '  provider: ollama',
  '  model: llama3.1:8b',
  '',
  '# my rules',
  'rules:',
  '  - Be brief',
  '',
].join('\n');

test('continue: our item at the end of models, in the file’s own indentation, every other line kept', () => {
  const after = applyContinue(CONTINUE_TEXT, 'config.yaml', target);
  const lines = after.split('\n');
  assert.deepEqual(lines.slice(0, 8), CONTINUE_TEXT.split('\n').slice(0, 8));
  assert.deepEqual(lines.slice(8, 16), [
    '- name: fcm-router',
    '  provider: openai',
    '  model: fcm',
    '  apiBase: http://127.0.0.1:5000/v1',
    '  apiKey: fcm-local',
    '  roles: [chat, edit, apply]',
    '  defaultCompletionOptions:',
    '    contextLength: 65000',
  ]);
  assert.deepEqual(lines.slice(16), CONTINUE_TEXT.split('\n').slice(8));
  assert.deepEqual(parseYaml(after), {
    name: 'Mine',
    version: '0.0.1',
    schema: 'v1',
    models: [
      { name: 'Llama', provider: 'ollama', model: 'llama3.1:8b' },
      {
        name: 'fcm-router',
        provider: 'openai',
        model: 'fcm',
        apiBase: 'http://127.0.0.1:5000/v1',
        apiKey: 'fcm-local',
        roles: ['chat', 'edit', 'apply'],
        defaultCompletionOptions: { contextLength: 65_000 },
      },
    ],
    rules: ['Be brief'],
  });
  // Again for another router: replaced where it is; stripped: the file as it was.
  const again = applyContinue(after, 'config.yaml', { origin: 'http://127.0.0.1:6000', contextWindow: null });
  assert.equal((again.match(/name: fcm-router/g) ?? []).length, 1);
  assert.match(again, /apiBase: http:\/\/127\.0\.0\.1:6000\/v1\n {2}apiKey/);
  assert.equal(stripContinue(again, 'config.yaml'), CONTINUE_TEXT);
});

test('continue: a new file gets the keys Continue requires; undo removes it', async () => {
  await withHome(async (home) => {
    assert.equal(await runSetup(options(home, { agent: 'continue', yes: true })), 0);
    const file = path.join(home, '.continue', 'config.yaml');
    const written = parseYaml(await readFile(file, 'utf8')) as {
      name: string;
      schema: string;
      models: unknown[];
    };
    assert.equal(written.schema, 'v1');
    assert.equal(written.name, 'Local Config');
    assert.equal(written.models.length, 1);
    await runSetup(options(home, { agent: 'continue', undo: true, yes: true }));
    assert.deepEqual(await readdir(home), [], 'the file and the folder setup made for it are gone');
  });
});

test('continue: models written inline, or an old config.json in use, are left alone and named', async () => {
  await withHome(async (home) => {
    const text = 'name: x\nversion: 1\nschema: v1\nmodels: [{ name: a, provider: openai, model: b }]\n';
    const file = await place(home, { agent: 'continue', file: '.continue/config.yaml', text });
    const inline = options(home, { agent: 'continue', yes: true });
    assert.equal(await runSetup(inline), 1);
    assert.match(inline.out.join('\n'), /models is not a list of "- name: …" items fcm-router can edit/);
    assert.equal(await readFile(file, 'utf8'), text);
  });
  await withHome(async (home) => {
    const dir = path.join(home, '.continue');
    await mkdir(dir);
    await writeFile(path.join(dir, 'config.json'), '{ "models": [] }');
    const legacy = options(home, { agent: 'continue', yes: true });
    assert.equal(await runSetup(legacy), 1);
    assert.match(legacy.out.join('\n'), /config\.json is in use; a new config\.yaml would replace it/);
    assert.deepEqual(await readdir(dir), ['config.json']);
  });
});

test('continue: a broken config.yaml is refused by the place of its fault, never quoting its lines (they may hold keys)', async () => {
  const key = 'sk-secret-continue-key-0c7e';
  const text = `models:\n  - name: a\n    apiKey: ${key}\n    apiKey: ${key}\n`;
  await withHome(async (home) => {
    await place(home, { agent: 'continue', file: '.continue/config.yaml', text });
    const run = options(home, { agent: 'continue', yes: true });
    assert.equal(await runSetup(run), 1);
    const said = run.out.join('\n');
    assert.match(
      said,
      /config\.yaml is not valid YAML \(duplicate key at line 4, column 5\); nothing was changed/,
    );
    assert.doesNotMatch(said, /sk-secret/);
  });
});

test('continue: a file that is not YAML is refused untouched', async () => {
  await withHome(async (home) => {
    const text = 'models:\n  - name: a\n   bad: [\n';
    const file = await place(home, { agent: 'continue', file: '.continue/config.yaml', text });
    const run = options(home, { agent: 'continue', yes: true });
    assert.equal(await runSetup(run), 1);
    assert.match(run.out.join('\n'), /config\.yaml is not valid YAML/);
    assert.equal(await readFile(file, 'utf8'), text);
  });
});
