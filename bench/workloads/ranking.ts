import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { catalogueEnv, RANKING_KEYLESS } from '../bench-config.js';
import { resolveConfig } from '../../router/config/resolve-config.js';
import { DEFAULT_CONFIG } from '../../router/config/schema.js';
import { hasLimits } from '../../router/catalogue/free-tier-limits.js';
import { candidateFacts } from '../../router/engine/routing/candidate-facts.js';
import { homeFirst, skipUnfit, type FitRun } from '../../router/engine/fit/fit-steps.js';
import { SessionHomes } from '../../router/engine/fit/session-homes.js';
import { FitBook } from '../../router/state/fit-book.js';
import { budgetId } from '../../router/engine/booking/key-rotation.js';
import { rankCandidates } from '../../router/engine/routing/ranking.js';
import { BreakerStore } from '../../router/state/breaker-store.js';
import { QuotaBook } from '../../router/state/quota-book.js';
import { elapsedMs } from '../stats.js';
import { systemTime } from '../../router/state/clock.js';

export interface RankingSample {
  models: number;
  providers: number;
  usPerRanking: number;
}

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Ranks the default set of the whole catalogue (a key for every provider) `iterations` times, with a
 * realistic mix of breaker states and pauses, and a minute of free-tier budget counts (some models near
 * their limit), through the same fact-gathering the engine uses per request; then fits a Claude Code turn
 * of 20,000 tokens with tools and 32,000 tokens of output asked for as the chain does before its first
 * dispatch (the session's home first, then candidates in turn up to the first that can take it: windows,
 * TPM, the minute's room, learnt ceilings).
 */
export async function measureRanking(iterations: number): Promise<RankingSample> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-bench-rank-'));
  try {
    const resolved = resolveConfig(DEFAULT_CONFIG, catalogueEnv(RANKING_KEYLESS));
    const set = resolved.sets[resolved.activeSet] ?? [];
    const settings = DEFAULT_CONFIG.router.breaker;
    // The budget counts are made over the last minute, then the clock is the real one again.
    let past: number | null = Date.now() - 60_000;
    const clock = (): number => past ?? Date.now();
    const common = { time: { ...systemTime, now: clock }, debounceMs: 3_600_000, logger: silent };
    const breakers = new BreakerStore({
      ...common,
      file: path.join(dir, 'breakers.json'),
      settings: () => settings,
    });
    const quotas = new QuotaBook({ ...common, file: path.join(dir, 'quotas.json') });
    const fits = new FitBook({ ...common, file: path.join(dir, 'fit.json') });
    set.forEach((key, index) => {
      if (index % 10 === 7) fits.refusedSize(key, 30_000, 'context', null);
    });
    const sessions = new SessionHomes(clock);
    sessions.served('bench-session', set[Math.floor(set.length / 2)] ?? '');
    set.forEach((key, index) => {
      if (index % 10 === 1) for (let i = 0; i < 3; i += 1) breakers.recordFailure(key, 'server_error');
      if (index % 10 === 2) for (let i = 0; i < 2; i += 1) breakers.recordFailure(key, 'empty_content');
      if (index % 10 === 3) {
        const provider = resolved.providers.get(resolved.models.get(key)?.provider ?? '');
        quotas.pauseModel(key, provider?.keys[0]?.fingerprint ?? '', 60_000, true);
      }
    });
    // Of every ten models with limits, traffic reached one up to near its per-minute limit, one at a
    // request a second and one now and then (a request every 12 s); the rest saw none this minute.
    for (let second = 0; second < 59; second += 1) {
      set.forEach((key, index) => {
        const model = resolved.models.get(key);
        const provider = resolved.providers.get(model?.provider ?? '');
        if (!model || !provider || !hasLimits(model.limits)) return;
        const id = budgetId(provider, key, provider.keys[0]?.fingerprint ?? '');
        const share = index % 10;
        const requests =
          share === 4
            ? Math.ceil(((model.limits.rpm ?? 60) * 0.85) / 59)
            : share === 5 || (share === 6 && second % 12 === 0)
              ? 1
              : 0;
        if (requests > 0) quotas.budgets.add(id, provider.dayTimeZone, model.limits, requests, 500);
      });
      if (past !== null) past += 1000;
    }
    past = null;
    const blocked = new Set<string>();
    const needs = { input: 20_000, output: 32_000, tools: true, images: false };
    const rank = (): number => {
      const { order } = rankCandidates(
        set,
        (key) => candidateFacts(key, resolved, breakers, quotas, blocked),
        Date.now(),
        settings,
      );
      const run: FitRun = {
        ctx: { resolved, fits, quotas, sessions },
        req: { needs, session: 'bench-session', opensConversation: false },
        trace: { skips: [], largestTooSmall: null, sticky: null, refusedKeys: blocked },
        pinnedModel: null,
      };
      // As the chain walks: the session's home first, then each candidate fitted in its turn up to the
      // first one that can take the request (the one dispatched first).
      let fitted = 0;
      for (const candidate of homeFirst(run, order)) {
        fitted += 1;
        if (!skipUnfit(run, candidate.key)) break;
      }
      return fitted + run.trace.skips.length;
    };
    let sink = 0;
    for (let i = 0; i < 500; i += 1) sink += rank();
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i += 1) sink += rank();
    const us = (elapsedMs(start) * 1000) / iterations;
    if (sink < 0) throw new Error('unreachable');
    const providers = new Set(set.map((key) => key.split('/')[0])).size;
    await Promise.all([breakers.close(), quotas.close(), fits.close()]);
    return { models: set.length, providers, usPerRanking: us };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
