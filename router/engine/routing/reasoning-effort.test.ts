/**
 * The reasoning effort Claude Code and Codex ask for reaches the models whose `modelFit` says they take
 * `reasoning_effort`, and no other (most chat-completions upstreams refuse a field they do not know).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withScenario } from '../../test-support/scenario.js';
import { json } from '../../test-support/upstream-behaviours.js';

const options = {
  providers: { thinks: ['m'], plain: ['m'] },
  providerSettings: { thinks: { modelFit: { m: { reasoningEffort: true } } } },
};

test('Messages output_config.effort and Responses reasoning.effort go out as reasoning_effort where taken', async () => {
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('thinks/m', json('thought')).always('plain/m', json('plain'));
    const messages = [{ role: 'user', content: 'hi' }];
    const ask = (model: string) => ({ model, max_tokens: 100, output_config: { effort: 'max' }, messages });
    assert.equal((await router.api('POST', '/v1/messages', ask('fcm:@thinks/m'))).status, 200);
    assert.equal((await router.api('POST', '/v1/messages', ask('fcm:@plain/m'))).status, 200);
    const codex = { model: 'fcm:@thinks/m', input: 'hi', reasoning: { effort: 'low' } };
    assert.equal((await router.api('POST', '/v1/responses', codex)).status, 200);
    const [first, second] = upstream.callsTo('thinks/m');
    assert.equal(first?.body?.reasoning_effort, 'high');
    assert.equal(second?.body?.reasoning_effort, 'low');
    assert.equal('reasoning_effort' in (upstream.callsTo('plain/m')[0]?.body ?? {}), false);
  });
});
