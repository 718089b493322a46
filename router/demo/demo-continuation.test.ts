/**
 * The demo's cut stream through the real router: `demo-sometimes/cut-short` closes every other stream
 * half-way, and the next model of the set finishes the answer in the same stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sseData, sseText } from '../test-support/http-client.js';
import { startHarness } from '../test-support/router-harness.js';
import { demoConfig } from './demo-config.js';
import { startDemoUpstream } from './demo-upstream.js';

test('a demo stream cut half-way is finished by the next model: one whole answer, both attempts traced', async () => {
  const upstream = await startDemoUpstream();
  const config = demoConfig(upstream.url);
  const router = await startHarness({
    config: {
      ...config,
      sets: { cut: ['demo-sometimes/cut-short', 'demo-fast/reasoner'] },
      activeSet: 'cut',
    },
  });
  try {
    const whole = await router.chat({ stream: false });
    const full = (JSON.parse(whole.text) as { choices: { message: { content: string } }[] }).choices[0]
      ?.message.content;
    const cut = await router.chat({ stream: true });
    assert.equal(sseText(cut.text), full);
    assert.equal(sseData(cut.text).at(-1), '[DONE]');
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'served');
    assert.deepEqual(
      entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}:${a.role}`),
      ['demo-sometimes/cut-short:unfinished_stream:normal', 'demo-fast/reasoner:ok:continuation'],
    );
  } finally {
    await router.close();
    await upstream.close();
  }
});
