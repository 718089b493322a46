/**
 * `setup <agent> --undo` after the file changed otherwise (the agent saved a setting, the user trusted a
 * folder): setup's part goes, the change stays, and each value setup had replaced comes back from the
 * backup, named in what undo says; the backup is then used up, so a later setup and undo start again from
 * the file as it is. Real files on a throwaway HOME, through `runSetup`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, readFile, writeFile } from 'node:fs/promises';
import { options, place, withHome } from '../test-support/setup-home.js';
import { backupPath, runSetup } from './setup-command.js';

async function setUp(home: string, agent: string): Promise<void> {
  assert.equal(await runSetup(options(home, { agent, yes: true })), 0);
}

/** Runs undo; resolves with what it printed last (the line saying what it did). */
async function undo(home: string, agent: string): Promise<string> {
  const run = options(home, { agent, undo: true, yes: true });
  assert.equal(await runSetup(run), 0, run.out.join('\n'));
  return run.out.at(-1) ?? '';
}

async function editJson(file: string, edit: (settings: Record<string, unknown>) => void): Promise<void> {
  const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(settings);
  await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`);
}

async function gone(file: string): Promise<boolean> {
  return access(file).then(
    () => false,
    () => true,
  );
}

test('codex: the model and provider the user had come back in place; their later change stays', async () => {
  await withHome(async (home) => {
    const text =
      'model = "gpt-5-codex" # mine\nmodel_provider = "azure"\n\n[model_providers.azure]\nname = "Azure"\nbase_url = "https://x.openai.azure.com/openai"\nenv_key = "AZURE_OPENAI_API_KEY"\n';
    const file = await place(home, { agent: 'codex', file: '.codex/config.toml', text });
    await setUp(home, 'codex');
    // Codex appends this itself when the user trusts a project folder.
    await writeFile(
      file,
      `${await readFile(file, 'utf8')}\n[projects."/home/u/app"]\ntrust_level = "trusted"\n`,
    );
    const said = await undo(home, 'codex');
    assert.equal(
      await readFile(file, 'utf8'),
      `${text}\n[projects."/home/u/app"]\ntrust_level = "trusted"\n`,
    );
    assert.match(
      said,
      /brought back from .*config\.toml\.fcm-router\.bak \(model, model_provider\); the backup removed\.$/,
    );
    assert.ok(await gone(backupPath(file)));
  });
});

test("claude-code: the user's own gateway entries come back, named but never shown", async () => {
  await withHome(async (home) => {
    const env = {
      ANTHROPIC_BASE_URL: 'https://llm-gateway.corp.example',
      ANTHROPIC_AUTH_TOKEN: 'corp-token-canary',
      ANTHROPIC_MODEL: 'claude-opus-4-1',
      FOO: 'bar',
    };
    const text = `${JSON.stringify({ theme: 'dark', env }, null, 2)}\n`;
    const file = await place(home, { agent: 'claude-code', file: '.claude/settings.json', text });
    await setUp(home, 'claude-code');
    // Saved by Claude Code's /model.
    await editJson(file, (settings) => (settings.model = 'opus'));
    const said = await undo(home, 'claude-code');
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { theme: 'dark', env, model: 'opus' });
    assert.match(said, /\(env\.ANTHROPIC_BASE_URL, env\.ANTHROPIC_AUTH_TOKEN, env\.ANTHROPIC_MODEL\)/);
    assert.ok(!said.includes('corp-token-canary'), 'a value is never printed');
  });
});

test("qwen-code: the user's own auth type and model come back; setup's entry and key variable go", async () => {
  await withHome(async (home) => {
    const text =
      '{\n  "$version": 4,\n  "security": { "auth": { "selectedType": "qwen-oauth" } },\n  "model": { "name": "qwen3-coder-plus" }\n}\n';
    const file = await place(home, { agent: 'qwen-code', file: '.qwen/settings.json', text });
    await setUp(home, 'qwen-code');
    // Saved by Qwen Code's /theme.
    await editJson(file, (settings) => (settings.ui = { theme: 'GitHub' }));
    const said = await undo(home, 'qwen-code');
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), {
      $version: 4,
      security: { auth: { selectedType: 'qwen-oauth' } },
      model: { name: 'qwen3-coder-plus' },
      ui: { theme: 'GitHub' },
    });
    assert.match(said, /\(model\.name, security\.auth\.selectedType\)/);
  });
});

test("opencode: the user's model comes back; one the user chose since setup is kept", async () => {
  await withHome(async (home) => {
    const text = '{\n  "theme": "system",\n  "model": "anthropic/claude-sonnet-4-5"\n}\n';
    const file = await place(home, { agent: 'opencode', file: '.config/opencode/opencode.json', text });
    await setUp(home, 'opencode');
    await editJson(file, (settings) => (settings.autoupdate = false));
    assert.match(await undo(home, 'opencode'), /\(model\)/);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), {
      theme: 'system',
      model: 'anthropic/claude-sonnet-4-5',
      autoupdate: false,
    });

    await setUp(home, 'opencode');
    await editJson(file, (settings) => Object.assign(settings, { model: 'openai/gpt-5', autoupdate: true }));
    assert.match(await undo(home, 'opencode'), /fcm-router settings removed; .*\.bak removed\.$/);
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as { model: string }).model, 'openai/gpt-5');
  });
});

test('after an undo that gave values back, the next setup backs up the file anew and its undo brings that back', async () => {
  await withHome(async (home) => {
    const text = 'model = "o3"\n\n[profiles.x]\nmodel = "o3"\n';
    const file = await place(home, { agent: 'codex', file: '.codex/config.toml', text });
    await setUp(home, 'codex');
    const trusted = '\n[projects."/a"]\ntrust_level = "trusted"\n';
    await writeFile(file, `${await readFile(file, 'utf8')}${trusted}`);
    await undo(home, 'codex');
    assert.equal(await readFile(file, 'utf8'), `${text}${trusted}`);
    // The user moves to another model, then sets up again and undoes with nothing else changed.
    const moved = `${text.replace('o3', 'gpt-5')}${trusted}`;
    await writeFile(file, moved);
    await setUp(home, 'codex');
    assert.match(await undo(home, 'codex'), /restored from/);
    assert.equal(await readFile(file, 'utf8'), moved);
  });
});
