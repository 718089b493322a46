import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyClaude, applyOpencode, opencodeLimit } from './json-agents.js';

test("OpenCode's limit keeps a quarter of the window for the answer, never more than OpenCode asks", () => {
  assert.deepEqual(opencodeLimit(65_000), { context: 65_000, output: 16_250 });
  assert.deepEqual(opencodeLimit(32_768), { context: 32_768, output: 8_192 });
  assert.deepEqual(opencodeLimit(1_000_000), { context: 1_000_000, output: 32_000 });
});

test('OpenCode gets no limit when the window is unknown: a context without an output is refused', () => {
  const text = applyOpencode(null, 'opencode.json', { origin: 'http://127.0.0.1:5000', contextWindow: null });
  const settings = JSON.parse(text) as { provider: { fcm: { models: { fcm: Record<string, unknown> } } } };
  assert.deepEqual(settings.provider.fcm.models.fcm, { name: 'fcm (fcm-router)' });
});

test('Claude Code set up already, with the user’s own env entries added since: setup changes nothing', () => {
  const target = { origin: 'http://127.0.0.1:5000', contextWindow: 65_000 };
  const first = applyClaude(null, 'settings.json', target);
  const settings = JSON.parse(first) as { env: Record<string, string> };
  const edited = `${JSON.stringify({ ...settings, env: { ...settings.env, MY_VAR: '1' } }, null, 2)}\n`;
  assert.equal(applyClaude(edited, 'settings.json', target), edited);
  const unknown = applyClaude(edited, 'settings.json', { ...target, contextWindow: null });
  const env = (JSON.parse(unknown) as { env: Record<string, string> }).env;
  assert.equal(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW, undefined, 'a window no longer known is taken out');
  assert.deepEqual(Object.keys(env).at(-1), 'MY_VAR');
});
