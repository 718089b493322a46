/**
 * `node --import tsx bench/continue-vs-restart.ts [--chunks N] [--interval-ms MS] [--repeats R]`: how long an
 * agent waits for a whole streamed answer when its model dies half-way through it, with the router
 * continuing the answer (`continueStreams: true`) against the agent restarting it (`false`: the agent gets
 * the partial answer and an error, and asks again, as Claude Code and Codex do). The fake models stream at
 * one pace; the model that died serves in full when asked again, so the restart is at its best. Prints the
 * medians, their ratio and the answer characters the upstreams generated each way.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { median } from './stats.js';
import { continuedFrom } from '../router/test-support/continuing-model.js';
import { httpRequest, sseData, sseText } from '../router/test-support/http-client.js';
import { withScenario, type Scenario } from '../router/test-support/scenario.js';
import type { Behaviour } from '../router/test-support/upstream-behaviours.js';
import { contentFrame, finishFrame, roleFrame } from '../router/test-support/upstream-frames.js';

export interface PaceOptions {
  /** Pieces in a whole answer. */
  chunks: number;
  /** Time between two pieces, ms (a model's pace). */
  intervalMs: number;
  repeats: number;
}

export interface ContinueVsRestart {
  continuedMs: number;
  restartedMs: number;
  /** Answer characters the upstreams streamed for one whole answer, each way. */
  continuedChars: number;
  restartedChars: number;
  answerChars: number;
  /** Characters the model streamed before it died. */
  diedAfterChars: number;
}

const frame = (value: Record<string, unknown>): string => `data: ${JSON.stringify(value)}\n\n`;
/** The answer's pieces, each word numbered (`t0 t1 …`). */
const piecesOf = (chunks: number): string[] => Array.from({ length: chunks }, (_, i) => `t${i} `);

/**
 * A model streaming `pieces` one per interval, from where the answer it is asked to continue stops;
 * with `dieAfter`, its connection drops after that many pieces. Counts the characters it streamed.
 */
function paced(
  pieces: readonly string[],
  intervalMs: number,
  dieAfter: number | null,
  count: { chars: number },
): Behaviour {
  return async (res, call) => {
    const sofar = continuedFrom(call.body) ?? '';
    let at = 0;
    for (let length = 0; at < pieces.length && length < sofar.length; at += 1)
      length += (pieces[at] as string).length;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(frame(roleFrame()));
    for (let sent = 0; at < pieces.length; at += 1, sent += 1) {
      await delay(intervalMs);
      if (call.closedEarly) return;
      if (sent === dieAfter) return void res.socket?.destroy();
      res.write(frame(contentFrame(pieces[at] as string)));
      count.chars += (pieces[at] as string).length;
    }
    res.end(`${frame(finishFrame('stop'))}data: [DONE]\n\n`);
  };
}

/** One streamed request; its text and whether it ended cleanly. */
async function ask(scenario: Scenario): Promise<{ text: string; clean: boolean }> {
  const reply = await httpRequest(`${scenario.router.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'fcm', stream: true, messages: [{ role: 'user', content: 'Write it.' }] }),
  });
  return { text: sseText(reply.text), clean: sseData(reply.text).at(-1) === '[DONE]' };
}

/** Times whole answers under one `continueStreams` setting; the agent asks again after a broken stream. */
async function timeAnswers(
  continueStreams: boolean,
  pace: PaceOptions,
): Promise<{ ms: number[]; chars: number }> {
  const pieces = piecesOf(pace.chunks);
  const full = pieces.join('');
  const count = { chars: 0 };
  const ms: number[] = [];
  const options = {
    providers: { alpha: ['m1'], beta: ['m2'] },
    failover: { continueStreams, streamIdleTimeoutMs: 60_000, totalBudgetMs: 600_000 },
    breaker: { failureThreshold: 20, degradedRatio: 1 },
  };
  await withScenario(options, async (scenario) => {
    const half = Math.floor(pace.chunks / 2);
    for (let i = 0; i < pace.repeats; i += 1) {
      await scenario.router.api('POST', '/api/models/reset', { model: 'alpha/m1' });
      scenario.upstream.script('alpha/m1', paced(pieces, pace.intervalMs, half, count));
      // Continued, the next model finishes the answer; restarted, the agent's second ask gets all of it.
      const next = paced(pieces, pace.intervalMs, null, count);
      scenario.upstream.script(continueStreams ? 'beta/m2' : 'alpha/m1', next);
      const started = performance.now();
      let answer = await ask(scenario);
      if (!answer.clean) answer = await ask(scenario);
      ms.push(performance.now() - started);
      if (answer.text !== full || !answer.clean) throw new Error('the agent did not get the whole answer');
    }
  });
  return { ms, chars: count.chars / pace.repeats };
}

export async function measureContinueVsRestart(pace: PaceOptions): Promise<ContinueVsRestart> {
  const continued = await timeAnswers(true, pace);
  const restarted = await timeAnswers(false, pace);
  return {
    continuedMs: median(continued.ms),
    restartedMs: median(restarted.ms),
    continuedChars: continued.chars,
    restartedChars: restarted.chars,
    answerChars: piecesOf(pace.chunks).join('').length,
    diedAfterChars: piecesOf(pace.chunks)
      .slice(0, Math.floor(pace.chunks / 2))
      .join('').length,
  };
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? Number.NaN : Number(process.argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

if (process.argv[1]?.endsWith('continue-vs-restart.ts')) {
  const pace = {
    chunks: option('chunks', 200),
    intervalMs: option('interval-ms', 10),
    repeats: option('repeats', 5),
  };
  const r = await measureContinueVsRestart(pace);
  console.log(`answer of ${pace.chunks} pieces, one every ${pace.intervalMs} ms, its model dying half-way:`);
  console.log(
    `  continued by the next model: ${r.continuedMs.toFixed(0)} ms, ${r.continuedChars} characters streamed`,
  );
  console.log(
    `  restarted by the agent:      ${r.restartedMs.toFixed(0)} ms, ${r.restartedChars} characters streamed`,
  );
  console.log(
    `  ratio continued / restarted: ${(r.continuedMs / r.restartedMs).toFixed(2)} (time), ${(r.continuedChars / r.restartedChars).toFixed(2)} (characters); the answer is ${r.answerChars}`,
  );
}
