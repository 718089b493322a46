import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureContinueVsRestart } from './continue-vs-restart.js';

test('a continued answer streams each character once; a restart streams the half that died twice', async () => {
  const r = await measureContinueVsRestart({ chunks: 20, intervalMs: 1, repeats: 2 });
  assert.equal(r.continuedChars, r.answerChars);
  assert.equal(r.restartedChars, r.answerChars + r.diedAfterChars);
});
