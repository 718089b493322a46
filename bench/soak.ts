/**
 * `npm run soak [-- --requests N] [-- --seed S] [-- --concurrency C] [-- --hedge-after-ms MS] [-- --probes]`:
 * the chaos soak at full length (with hedging when MS is given, below the soak's 1,500 ms request timeout; with
 * health probes on every provider with `--probes`). Prints
 * the counts and every violation; exits 1 when any invariant broke. It does not call process.exit: a
 * leaked socket or timer would keep it alive, and a watchdog says so.
 */
import { PROBE_TICK_MS, SOAK_REQUEST_TIMEOUT_MS, runSoak, type SoakReport } from './soak-runner.js';

/** The whole number after `--name`, or `fallback` without one; any other value stops the soak before it starts. */
function option(name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const text = process.argv[at + 1] ?? '';
  const value = Number(text);
  if (text !== '' && Number.isInteger(value) && value >= min && value <= max) return value;
  // Nothing has started yet: exiting here leaves nothing behind.
  console.error(`soak: --${name} takes a whole number from ${min} to ${max}, got ${text || 'nothing'}`);
  process.exit(2);
}

/** The counts as printed lines. */
export function describeSoak(report: SoakReport): string[] {
  const c = report.categories;
  const failed = c.doomed + c.held_back + c.budget + c.attempt_cap;
  const m = report.memory;
  return [
    `requests:               ${report.requests} in ${(report.durationMs / 1000).toFixed(1)} s`,
    `served first try:       ${c.served_first}`,
    `served after failover:  ${c.served_after_failover}`,
    `continued (broke mid-stream, finished by the next models): ${c.continued}`,
    `left (the client hung up at the first bytes): ${c.left}`,
    `partial (broke mid-stream, no model finished it, marked with an error frame): ${c.partial}`,
    `all failed:             ${failed} (every model failed by scenario: ${c.doomed}; good models held back by breaker, pause or dead key: ${c.held_back}; budget spent: ${c.budget}; attempt cap: ${c.attempt_cap})`,
    `  good models held back: ${
      Object.entries(report.heldBy)
        .map(([reason, n]) => `${reason} ${n}`)
        .join(', ') || 'none'
    }`,
    `hedges:                 ${report.hedges.started} started, ${report.hedges.served} served, ${report.hedges.lost} lost the race`,
    `probes:                 ${report.probes.run} run (${report.probes.trials} as a model's trial), ${report.probes.served} served, ${report.probes.upstreamCalls} upstream calls`,
    `key rotations:          ${report.keyRotations} requests moved a model to its provider's other key; free-tier budget skips: ${report.budgetSkips}`,
    `invariant violations:   ${report.violations.length}`,
    `upstream behaviours:    ${Object.entries(report.behaviourCounts)
      .map(([b, n]) => `${b} ${n}`)
      .join(', ')}`,
    `state files:            ${report.stateProblems.length === 0 ? 'ok' : report.stateProblems.join('; ')}`,
    `privacy canaries:       ${report.privacyLeaks.length === 0 ? 'found nowhere' : report.privacyLeaks.join('; ')}`,
    `memory (after gc):      rss ${m.rssMidMb.toFixed(0)} -> ${m.rssEndMb.toFixed(0)} MB, heap ${m.heapMidMb.toFixed(1)} -> ${m.heapEndMb.toFixed(1)} MB (mid -> end)`,
    `leaked handles:         ${report.leakedHandles.length === 0 ? 'none' : report.leakedHandles.join(', ')}`,
    `stray upstream calls:   ${report.strays.length}`,
  ];
}

const isMain = process.argv[1]?.endsWith('soak.ts') ?? false;
if (isMain) {
  const seed = option('seed', 20_260_529);
  const requests = option('requests', 6000);
  const concurrency = option('concurrency', 32);
  // The router's own minimum, and below the soak's request timeout (else nothing is ever hedged).
  const hedge = option('hedge-after-ms', Number.NaN, 100, SOAK_REQUEST_TIMEOUT_MS - 1);
  const hedgeAfterMs = Number.isFinite(hedge) ? hedge : null;
  const probes = process.argv.includes('--probes');
  const hedging = hedgeAfterMs === null ? '' : `, hedging after ${hedgeAfterMs} ms`;
  const probing = probes ? `, probes every ${PROBE_TICK_MS} ms` : '';
  console.log(
    `chaos soak: ${requests} requests, concurrency ${concurrency}, seed ${seed}${hedging}${probing}`,
  );
  const report = await runSoak({
    seed,
    requests,
    concurrency,
    hedgeAfterMs,
    probes,
    log: (line) => console.log(`  ${line}`),
  });
  for (const line of describeSoak(report)) console.log(line);
  for (const v of report.violations.slice(0, 50))
    console.log(`  violation: ${v.index < 0 ? '' : `request ${v.index}: `}${v.problem}`);
  const broken =
    report.violations.length +
    report.stateProblems.length +
    report.privacyLeaks.length +
    report.leakedHandles.length +
    report.strays.length;
  process.exitCode = broken > 0 ? 1 : 0;
  // Fires only if something still holds the event loop open: a leak the handle check did not name.
  setTimeout(() => {
    console.error(
      `soak: process still alive 5 s after the end: ${process.getActiveResourcesInfo().join(', ')}`,
    );
    process.exit(1);
  }, 5000).unref();
}
