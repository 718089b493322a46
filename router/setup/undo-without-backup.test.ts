/**
 * `setup <agent> --undo` on a file setup never wrote (no backup, no note beside it): the user's own values
 * stay byte for byte, nothing is written, and undo says there is nothing to undo, also when the file is
 * written in another layout than setup's. Where setup's values stand beside the user's own, only setup's
 * go. Real files on a throwaway HOME, through `runSetup`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { options, place, withHome, type Fixture } from '../test-support/setup-home.js';
import { runSetup } from './setup-command.js';

/** Each agent's file as a user writes it, on one line or otherwise unlike setup's layout. */
const USERS_OWN: readonly Fixture[] = [
  {
    agent: 'claude-code',
    file: '.claude/settings.json',
    text: '{"env":{"ANTHROPIC_BASE_URL":"https://llm-gateway.example.com","ANTHROPIC_AUTH_TOKEN":"corp-token-abc","ANTHROPIC_MODEL":"claude-opus-4","CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC":"1","CLAUDE_CODE_AUTO_COMPACT_WINDOW":"90000"}}',
  },
  {
    agent: 'opencode',
    file: '.config/opencode/opencode.json',
    text: '{"model":"anthropic/claude-sonnet-4-5","provider":{"corp":{"options":{"baseURL":"https://llm.example.com/v1"}}}}',
  },
  {
    agent: 'qwen-code',
    file: '.qwen/settings.json',
    text: '{"$version":4,"model":{"name":"qwen3-coder-plus"},"security":{"auth":{"selectedType":"openai"}},"env":{"OPENAI_API_KEY":"sk-mine"}}',
  },
  {
    agent: 'codex',
    file: '.codex/config.toml',
    text: 'model = "o3"\nmodel_provider = "azure"\n\n[model_providers.azure]\nname = "Azure"\n',
  },
  {
    agent: 'continue',
    file: '.continue/config.yaml',
    text: 'name: Mine\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: corp\n    provider: openai\n    model: gpt-5\n',
  },
];

for (const fixture of USERS_OWN)
  test(`${fixture.agent}: undo without a backup leaves a file setup never wrote as it is`, async () => {
    await withHome(async (home) => {
      const file = await place(home, fixture);
      const { ino } = await stat(file);
      const run = options(home, { agent: fixture.agent, undo: true, yes: true });
      assert.equal(await runSetup(run), 0, run.out.join('\n'));
      assert.equal(await readFile(file, 'utf8'), fixture.text);
      assert.equal((await stat(file)).ino, ino, 'nothing is written (a write puts a new file in place)');
      assert.deepEqual(run.out, [`${file} has nothing of fcm-router's; nothing to undo.`]);
      assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)]);
    });
  });

test('claude-code: setup, undo, then undo again from the shell history keeps the gateway settings', async () => {
  await withHome(async (home) => {
    const [claude] = USERS_OWN;
    assert.ok(claude);
    const file = await place(home, claude);
    const run = (undo: boolean) => options(home, { agent: 'claude-code', undo, yes: true });
    for (const undo of [false, true, true]) assert.equal(await runSetup(run(undo)), 0);
    assert.equal(await readFile(file, 'utf8'), claude.text);
  });
});

test("claude-code: without a backup, undo takes out setup's values and leaves the user's beside them", async () => {
  await withHome(async (home) => {
    const env = {
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:19280',
      ANTHROPIC_AUTH_TOKEN: 'fcm-local',
      ANTHROPIC_MODEL: 'fcm:coding',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: '65000',
      MY_VAR: 'x',
    };
    const text = `${JSON.stringify({ theme: 'dark', env }, null, 2)}\n`;
    const file = await place(home, { agent: 'claude-code', file: '.claude/settings.json', text });
    const run = options(home, { agent: 'claude-code', undo: true, yes: true });
    assert.equal(await runSetup(run), 0);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { theme: 'dark', env: { MY_VAR: 'x' } });
    assert.match(run.out.at(-1) ?? '', /fcm-router settings removed\.$/);
  });
});

test("claude-code: a gateway URL and token of the user's beside this router's model: only the model goes", async () => {
  await withHome(async (home) => {
    const mine = { ANTHROPIC_AUTH_TOKEN: 'corp-token-abc', ANTHROPIC_BASE_URL: 'https://llm.example.com' };
    const text = JSON.stringify({ env: { ...mine, ANTHROPIC_MODEL: 'fcm' } });
    const file = await place(home, { agent: 'claude-code', file: '.claude/settings.json', text });
    assert.equal(await runSetup(options(home, { agent: 'claude-code', undo: true, yes: true })), 0);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { env: mine });
  });
});
