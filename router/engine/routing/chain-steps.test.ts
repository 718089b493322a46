import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { RankingMemo, type RankingInputs } from './chain-steps.js';
import type { Ranking } from './ranking.js';

const configA = {} as ResolvedConfig;
const configB = {} as ResolvedConfig;
const set = ['a/1', 'b/2'];

function ranking(timeless: boolean): Ranking {
  return { order: [{ key: 'a/1', role: 'normal' }], skips: [], panic: [], timeless };
}

/** Ranks through the memo and says whether `compute` ran. */
function rankWith(
  memo: RankingMemo,
  inputs: RankingInputs,
  timeless = true,
): { ran: boolean; result: Ranking } {
  let ran = false;
  const result = memo.rank(inputs, () => {
    ran = true;
    return ranking(timeless);
  });
  return { ran, result };
}

const base: RankingInputs = { set, resolved: configA, breakerVersion: 3, quotaVersion: 7 };

describe('RankingMemo', () => {
  it('reuses a timeless ranking while nothing changed', () => {
    const memo = new RankingMemo();
    const first = rankWith(memo, base);
    const second = rankWith(memo, { ...base });
    assert.equal(first.ran, true);
    assert.equal(second.ran, false);
    assert.equal(second.result, first.result);
  });

  it('ranks again after a breaker change, a quota change or a new config', () => {
    for (const changed of [
      { breakerVersion: 4 },
      { quotaVersion: 8 },
      { resolved: configB },
    ] satisfies Partial<RankingInputs>[]) {
      const memo = new RankingMemo();
      rankWith(memo, base);
      assert.equal(rankWith(memo, { ...base, ...changed }).ran, true, JSON.stringify(Object.keys(changed)));
    }
  });

  it('keeps sets apart by identity', () => {
    const memo = new RankingMemo();
    rankWith(memo, base);
    assert.equal(rankWith(memo, { ...base, set: [...set] }).ran, true);
  });

  it('never reuses a ranking that depended on the time, and forgets the one before it', () => {
    const memo = new RankingMemo();
    rankWith(memo, base);
    const timed = { ...base, breakerVersion: 4 };
    assert.equal(rankWith(memo, timed, false).ran, true);
    assert.equal(rankWith(memo, timed, false).ran, true);
    assert.equal(rankWith(memo, base).ran, true);
  });
});
