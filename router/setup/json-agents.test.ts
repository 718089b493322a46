import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyOpencode, opencodeLimit } from './json-agents.js';

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
