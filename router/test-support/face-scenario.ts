/**
 * The setting of the faces' end-to-end tests: a real router over a fake upstream whose first two models are
 * black holes — `hole/empty` (an empty 200, or a stream with nothing in it) and `hole/errframe` (an error
 * payload in a 200, or an SSE error frame before any content) — and whose third, `good/coder`, each test
 * scripts. The holes stay CLOSED, so every request meets both of them first.
 */
import assert from 'node:assert/strict';
import type { AttemptView, HistoryEntry } from '../api-types.js';
import { withScenario, type Scenario } from './scenario.js';
import { byStreaming, empty200, emptyStream, errorPayload, sseErrorFirst } from './upstream-behaviours.js';

export const GOOD = 'good/coder';

/** The models every request tries, in order. */
export const CHAIN = ['hole/empty', 'hole/errframe', GOOD];

/** Runs `run` with the black holes in place; `good/coder` is left for the test to script. */
export function withBlackHoles(run: (scenario: Scenario) => Promise<void>): Promise<void> {
  return withScenario(
    {
      providers: { hole: ['empty', 'errframe'], good: ['coder'] },
      breaker: { failureThreshold: 20, degradedRatio: 1 },
    },
    async (scenario) => {
      scenario.upstream.always('hole/empty', byStreaming(emptyStream(), empty200()));
      scenario.upstream.always('hole/errframe', byStreaming(sseErrorFirst(), errorPayload()));
      await run(scenario);
    },
  );
}

/** `model:kind` per attempt (`ok` for the one that served), to compare with an expected chain. */
export function attemptChain(attempts: readonly AttemptView[]): string[] {
  return attempts.map((attempt) => `${attempt.model}:${attempt.kind ?? 'ok'}`);
}

/** How a face's served requests read in history, for the face `api`. */
export interface EntryChecks {
  /** Served by `good/coder` after both holes, as every first turn is. */
  served(entry: HistoryEntry, stream: boolean): void;
  /** A later turn of a conversation whose last turn `good/coder` served: straight there, past the holes. */
  sticky(entry: HistoryEntry, stream: boolean): void;
}

/** The history checks of the face `api`'s end-to-end tests. */
export function entryChecks(api: HistoryEntry['api']): EntryChecks {
  const served = (entry: HistoryEntry, stream: boolean): void => {
    assert.equal(entry.api, api);
    assert.equal(entry.outcome, 'served');
    assert.equal(entry.stream, stream);
    assert.equal(entry.clientStatus, 200);
  };
  return {
    served(entry, stream) {
      served(entry, stream);
      const hole = `hole/empty:${stream ? 'empty_stream' : 'empty_choices'}`;
      assert.deepEqual(attemptChain(entry.attempts), [hole, 'hole/errframe:error_payload', `${GOOD}:ok`]);
    },
    sticky(entry, stream) {
      served(entry, stream);
      assert.equal(entry.sticky, GOOD);
      assert.deepEqual(attemptChain(entry.attempts), [`${GOOD}:ok`]);
    },
  };
}
