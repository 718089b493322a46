/**
 * A provider with several keys and a model with a TPM limit: only the keys an attempt could be sent with
 * count for the minute's room, and the key chosen is one with room for the request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withScenario } from '../../test-support/scenario.js';
import { json, jsonBody } from '../../test-support/upstream-behaviours.js';
import { completion } from '../../test-support/upstream-frames.js';

const CEREBRAS = 'cerebras/gpt-oss-120b'; // catalogue: 60K TPM per key
const prompt = (words: number) => ({ messages: [{ role: 'user', content: 'word '.repeat(words) }] });
const usage = { prompt_tokens: 40_000, completion_tokens: 10, total_tokens: 40_010 };
const TWO_KEYS = {
  providers: { cerebras: ['gpt-oss-120b'], big: ['m'] },
  providerSettings: { cerebras: { apiKeys: ['sk-second-key'] } },
};

test('a paused key’s minute room does not count: with the usable key’s minute full the model is skipped', async () => {
  await withScenario(TWO_KEYS, async ({ router, upstream }) => {
    const limited = jsonBody({ error: { message: 'rate limited' } }, 429);
    upstream
      .script(CEREBRAS, limited, jsonBody(completion('first', { usage })))
      .always(CEREBRAS, json('cerebras again'))
      .always('big/m', json('from big'));
    await router.chat(prompt(100));
    const [paused, served] = router.lastEntry().attempts;
    assert.equal(paused?.status, 429, 'the first key is paused, its minute empty');
    assert.equal(served?.status, 200, 'the second key served 40k tokens');

    // About 28k more would overflow the second key's 60k minute; the first key has room but is paused.
    await router.chat(prompt(25_000));
    const entry = router.lastEntry();
    assert.equal(upstream.callsTo(CEREBRAS).length, 2, 'not sent to a certain 429');
    assert.equal(entry.skipped[0]?.model, CEREBRAS);
    assert.equal(entry.skipped[0]?.reason, 'quota_budget');
    assert.equal(entry.servedModel, 'big/m');
  });
});

test('of two usable keys, the attempt goes with the one whose minute has room for the request', async () => {
  await withScenario(TWO_KEYS, async ({ router, upstream }) => {
    upstream
      .script(CEREBRAS, jsonBody(completion('first', { usage })))
      .always(CEREBRAS, json('cerebras again'));
    await router.chat(prompt(100));
    const first = router.lastEntry().attempts[0]?.key;
    assert.ok(first, 'the first key served 40k tokens');

    // About 28k more would overflow the first key's minute; the second key's minute is empty.
    await router.chat(prompt(25_000));
    const attempts = router.lastEntry().attempts;
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]?.model, CEREBRAS);
    assert.notEqual(attempts[0]?.key, first, 'the key with room, not the first key');
  });
});
