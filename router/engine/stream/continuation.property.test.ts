/**
 * Fuzzing continued streams through the real router over real fake upstreams: an answer of random words,
 * cut at any character, in random pieces, on any face; its model dies (a cut, an error frame, an unusable
 * tool call), the next restates any number of whole words before going on, and may die in turn. The agent
 * must get the answer exactly, once, with one clean ending: no text lost, none doubled. And a client that
 * left is never continued for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { HistoryEntry } from '../../api-types.js';
import { askFace, FACES, type FaceDriver } from '../../test-support/face-answers.js';
import { diesAfter, finishes, piecesOf, type Death } from '../../test-support/continuing-model.js';
import { openRequest } from '../../test-support/http-client.js';
import type { RouterHarness } from '../../test-support/router-harness.js';
import { withScenario } from '../../test-support/scenario.js';
import { sse } from '../../test-support/upstream-behaviours.js';
import { contentFrame, roleFrame } from '../../test-support/upstream-frames.js';

const RUNS = 40;
const MODELS = ['alpha/m1', 'beta/m2', 'gamma/m3'];

/** Every model healthy again, so each run meets them in order whatever the runs before did to them. */
async function resetModels(router: RouterHarness): Promise<void> {
  for (const model of MODELS) await router.api('POST', '/api/models/reset', { model });
}
const SCENARIO = {
  providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] },
  breaker: { failureThreshold: 20, degradedRatio: 1 },
};

/**
 * Words numbered in order (`w0…`, `w1…`), so an answer never repeats itself by chance: whatever a
 * continuation repeats, it restated.
 */
const answer = fc
  .array(
    fc.record({
      letters: fc.stringMatching(/^[a-zé]{0,6}$/),
      gap: fc.constantFrom(' ', ' ', ', ', '.\n', ' — '),
    }),
    { minLength: 3, maxLength: 14 },
  )
  .map((words) =>
    words
      .map((word, i) => `w${i}${word.letters}${word.gap}`)
      .join('')
      .trimEnd(),
  );

const plan = fc.record({
  full: answer,
  cut: fc.double({ min: 0.05, max: 0.9, noNaN: true }),
  pieces: fc.integer({ min: 1, max: 5 }),
  death: fc.constantFrom<Death>('cut', 'error', 'bad_tool'),
  restateWords: fc.integer({ min: 0, max: 3 }),
  continuationPieces: fc.integer({ min: 1, max: 6 }),
  second: fc.option(
    fc.record({ after: fc.integer({ min: 1, max: 12 }), death: fc.constantFrom<Death>('cut', 'error') }),
    { nil: null },
  ),
  face: fc.constantFrom(...FACES),
});

test('a continued answer reaches the agent whole and once, on every face', async () => {
  await withScenario(SCENARIO, async ({ router, upstream }) => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        await resetModels(router);
        const cutAt = Math.max(1, Math.floor(p.full.length * p.cut));
        const said = piecesOf(p.full.slice(0, cutAt), p.pieces).map(contentFrame);
        // Each model's answer for this run only (a queued one left unused would leak into the next run).
        upstream.always('alpha/m1', diesAfter(said, p.death));
        const again = { restateWords: p.restateWords, pieces: p.continuationPieces };
        const dies = p.second ?? undefined;
        upstream.always('beta/m2', finishes(p.full, { ...again, dies }));
        upstream.always('gamma/m3', finishes(p.full, again));
        const reply = await askFace(router.url, p.face, p.face.body(true, 'Tell me.', ['Read']));
        const read = p.face.read(reply.text);
        assert.equal(read.text, p.full);
        assert.deepEqual([read.ending, read.afterEnding, read.tools], ['clean', 0, []]);
        const entry = router.lastEntry();
        assert.equal(entry.outcome, 'served');
        assert.ok(entry.attempts.length >= 2);
        assert.ok(entry.attempts.slice(1).every((a) => a.role === 'continuation'));
      }),
      { numRuns: RUNS },
    );
  });
});

/** Opens a stream on `face`, waits for its first bytes, then leaves; resolves with the request's entry. */
async function leaveAfterFirstBytes(router: RouterHarness, face: FaceDriver): Promise<HistoryEntry> {
  const entry = router.nextEntry();
  const open = openRequest(`${router.url}${face.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
    body: JSON.stringify(face.body(true, 'Tell me.')),
  });
  const res = await open.response;
  await new Promise<void>((resolve) => res.once('data', () => resolve()));
  open.request.destroy();
  return entry;
}

test('a client that left is never continued for, whatever it had got', async () => {
  await withScenario(
    { ...SCENARIO, failover: { streamIdleTimeoutMs: 60_000 } },
    async ({ router, upstream }) => {
      upstream.always('beta/m2', finishes('never'));
      await fc.assert(
        fc.asyncProperty(answer, fc.constantFrom(...FACES), async (text, face) => {
          await resetModels(router);
          // Its client still there, the same answer cut short is continued: one call to beta.
          const calls = upstream.callsTo('beta/m2').length;
          upstream.always('alpha/m1', diesAfter(piecesOf(text, 3).slice(0, 1).map(contentFrame), 'cut'));
          await askFace(router.url, face, face.body(true, 'Tell me.'));
          assert.equal(upstream.callsTo('beta/m2').length, calls + 1);
          // The model goes silent after its content: it dies only when the router lets it go.
          upstream.script(
            'alpha/m1',
            sse([roleFrame(), ...piecesOf(text, 3).map(contentFrame)], { then: 'stall' }),
          );
          const entry = await leaveAfterFirstBytes(router, face);
          assert.equal(entry.outcome, 'client_aborted');
          assert.equal(upstream.callsTo('beta/m2').length, calls + 1, 'no call for the client that left');
        }),
        { numRuns: 10 },
      );
    },
  );
});
