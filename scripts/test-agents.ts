/**
 * `npm run test:agents`: the real coding agents, headless, against the real daemon over fake upstreams.
 * First, each agent runs with nothing but what `fcm-router setup` wrote into a throwaway HOME, which is then
 * undone (scripts/agent-setup-round.ts; `npm run test:agents -- --setup-only` runs that round alone). Then
 * Claude Code and Codex, in five rounds, each a plain prompt and a shell-tool loop: a set whose first model
 * has a 4,000-token window (smaller than either agent's requests), whose second refuses them with a 400 (a
 * shape its API will not take), whose next two are black holes (an empty 200; an SSE error frame before
 * content) and whose fifth is a scripted coding model; a set whose first model dies half-way through every
 * answer (its connection drops) before the same coding model; a set whose first model thinks and stops
 * without a word before it (its thoughts in the reasoning field, or in a think block as text); and a Gemini 3
 * model alone on Google's API, which refuses tool calls that lost their thought signature and signs its own;
 * and the coding model alone on a host that parses no tool calls, so it writes them into its text. Agents
 * retry quietly, so their exit status is not enough: every request the router saw on the agent's endpoint must
 * have been served; the small model refuses once and is skipped from then on; the strict one is asked last
 * once a request it refused was served; each conversation stays on the model that served its first turn; an
 * answer cut half-way, or one of thoughts alone, was finished by the coding model as a continuation, the
 * agent getting it whole; Gemini served every request at its first attempt and got its own signatures
 * back; the model writing its calls as text served every request at its first attempt, and the agents ran
 * those calls. Last, OpenCode, Qwen Code and Continue (the chat-completions agents, scripts/chat-agents.ts)
 * each get a plain prompt and a shell-tool loop over both black holes before the coding model, on a daemon of their
 * own, set up with the dashboard's snippet and the set's window, then the same before a model dying
 * half-way, then on the Gemini model alone, then on the model writing its calls as text alone; `--chat-only`
 * runs that round alone. The agents are installed on demand from npm into `.agents/` (ignored).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HistoryEntry } from '../router/api-types.js';
import {
  agentModel,
  agentModelDyingHalfway,
  agentModelThinkingOnly,
  CALL_TIMEOUT_MS,
} from '../router/test-support/agent-model.js';
import { startFakeUpstream, type FakeUpstream } from '../router/test-support/fake-upstream.js';
import { fetchContextWindow } from '../router/setup/router-target.js';
import { contextWindowOf } from '../router/test-support/fit-behaviours.js';
import { geminiOnGoogle, signatureFor, toolTurnSignatures } from '../router/test-support/google-model.js';
import { fakeProviders } from '../router/test-support/scenario.js';
import {
  byStreaming,
  empty200,
  errorPayload,
  sse,
  status,
  type UpstreamCall,
} from '../router/test-support/upstream-behaviours.js';
import { errorFrame, roleFrame } from '../router/test-support/upstream-frames.js';
import { ensureAgents, runAgents, startDaemon, type Check } from './agent-runs.js';
import { runSetupRound } from './agent-setup-round.js';
import {
  CHAT_AGENTS,
  chatHistoryCheck,
  chatOutputChecks,
  runChatAgent,
  type ChatAgent,
} from './chat-agents.js';

/** The model that refuses both agents' requests as too long for its 4,000-token window. */
const SMALL = 'small/ctx';
/** The model whose API refuses the agents' requests with a 400 the coding model does not: a shape it will not take. */
const STRICT = 'strict/params';

/** Skips and attempts of an entry, for a check's detail. */
function chainOf(entry: HistoryEntry): string {
  const chain = entry.attempts.map((attempt) => `${attempt.model}:${attempt.kind ?? 'ok'}`);
  const skips = entry.skipped.map((skip) => `skip ${skip.model}:${skip.reason}`);
  const sticky = entry.sticky === undefined ? '' : ` sticky ${entry.sticky}`;
  const behind = entry.behind === undefined ? '' : ` behind ${entry.behind.join(',')}`;
  return `${entry.requestId} ${entry.outcome} ${entry.clientStatus} ${[...skips, ...chain].join(' ')}${sticky}${behind}`;
}

/**
 * The strict model's 400 teaches the router once a request it refused was served: every request begun after
 * that one ended asks it last (`behind`) and never reaches it. Requests already under way then (an agent's
 * first requests go out together) may have met it too.
 */
function strictCheck(entries: readonly HistoryEntry[]): Check {
  const refused = entries.filter((entry) =>
    entry.attempts.some((attempt) => attempt.model === STRICT && attempt.kind === 'invalid_request'),
  );
  const taught = refused.find((entry) => entry.outcome === 'served');
  const learntAt = taught === undefined ? Number.POSITIVE_INFINITY : taught.at + taught.wallMs;
  const later = entries.filter((entry) => entry.at > learntAt);
  const wrong = later.filter(
    (entry) =>
      entry.attempts.some((attempt) => attempt.model === STRICT) || !(entry.behind ?? []).includes(STRICT),
  );
  return {
    name: `router history: ${STRICT} refused ${refused.length} request(s) another model served, then was asked last by the ${later.length} begun after and reached by none`,
    ok: taught !== undefined && later.length > 0 && wrong.length === 0,
    detail: [...refused, ...wrong].map(chainOf).join('\n'),
  };
}

/**
 * What the history must show (`entries` oldest first): every agent request served by good/coder; the small
 * model tried once, refusing for size, and skipped for it from then on; the strict model asked last once it
 * refused what good/coder served; each conversation's first turn through both black holes, its later turns
 * straight on its model (`sticky`).
 */
function historyChecks(entries: readonly HistoryEntry[]): Check[] {
  const onSmall = entries.filter((entry) => entry.attempts.some((attempt) => attempt.model === SMALL));
  const refusedOnce =
    onSmall.length === 1 && onSmall[0]?.attempts[0]?.kind === 'context_length' && onSmall[0] === entries[0];
  // Each candidate is fitted in its turn: a turn served by its conversation's model first never reaches it.
  const notSkipped = entries
    .slice(1)
    .filter(
      (entry) =>
        !entry.skipped.some((skip) => skip.model === SMALL && skip.reason === 'context_window') &&
        !(entry.sticky !== undefined && entry.attempts.length === 1 && entry.servedModel === entry.sticky),
    );
  const checks: Check[] = [
    {
      name: `router history: ${SMALL} refused the first request for its size, and every later one that reached it skipped it`,
      ok: refusedOnce && notSkipped.length === 0,
      detail: [...new Set([...onSmall, ...notSkipped])].map(chainOf).join('\n'),
    },
    strictCheck(entries),
  ];
  for (const api of ['messages', 'responses'] as const) {
    const seen = entries.filter((entry) => entry.api === api);
    const sessions = new Set<string>();
    const wrong = seen.filter((entry) => {
      if (entry.outcome !== 'served' || entry.servedModel !== 'good/coder') return true;
      const models = entry.attempts
        .map((attempt) => attempt.model)
        .filter((model) => model !== SMALL && model !== STRICT);
      const session = entry.session ?? entry.requestId;
      const first = !sessions.has(session);
      sessions.add(session);
      if (first) return models.join(' ') !== 'hole/empty hole/errframe good/coder';
      return entry.sticky !== 'good/coder' || models.join(' ') !== 'good/coder';
    });
    checks.push({
      name: `router history: all ${seen.length} ${api} requests (${sessions.size} conversations) served by good/coder, each conversation's first after both black holes, its later turns on good/coder directly`,
      ok: seen.length > 0 && wrong.length === 0,
      detail: wrong.map(chainOf).join('\n'),
    });
  }
  return checks;
}

/** The model that dies half-way through every answer. */
const DYING = 'half/dies';

/**
 * What a dying round's history must show on each of `faces` (of `who`'s requests, when named): every agent
 * request served by good/coder; each that met the dying model with a text answer (streamed) had it finished
 * by good/coder as a continuation, and at least one did on each face.
 */
function dyingChecks(
  entries: readonly HistoryEntry[],
  faces: readonly HistoryEntry['api'][] = ['messages', 'responses'],
  who = '',
): Check[] {
  const checks: Check[] = [];
  for (const api of faces) {
    const seen = entries.filter((entry) => entry.api === api);
    const continued = seen.filter((entry) =>
      entry.attempts.some((attempt) => attempt.model === 'good/coder' && attempt.role === 'continuation'),
    );
    const wrong = seen.filter((entry) => {
      if (entry.outcome !== 'served' || entry.servedModel !== 'good/coder') return true;
      const died = entry.attempts.find((attempt) => attempt.model === DYING);
      return died !== undefined && died.kind !== 'network_error' && died.kind !== 'unfinished_stream';
    });
    const cuts = seen.flatMap((entry) => entry.attempts.filter((attempt) => attempt.model === DYING));
    const closed = cuts.filter((attempt) => attempt.kind === 'unfinished_stream').length;
    checks.push({
      name: `router history: all ${seen.length} ${who}${api} requests served by good/coder, ${continued.length} of them continued after ${DYING} died half-way (${cuts.length - closed} dropped, ${closed} closed without their end)`,
      ok: seen.length > 0 && wrong.length === 0 && continued.length > 0,
      detail: [...wrong, ...continued].map(chainOf).join('\n'),
    });
  }
  return checks;
}

/** The model that thinks and then says nothing. */
const THINKER = 'thinks/only';

/**
 * What the thinking round's history must show on each translating face: every request served by
 * good/coder; each conversation's first met the thinker, which failed for saying nothing (`empty_content`),
 * and was finished by good/coder, as a continuation when streamed; its later turns straight on good/coder.
 */
function thinkingChecks(entries: readonly HistoryEntry[]): Check[] {
  const checks: Check[] = [];
  for (const api of ['messages', 'responses'] as const) {
    const seen = entries.filter((entry) => entry.api === api);
    const continued = seen.filter((entry) =>
      entry.attempts.some((attempt) => attempt.model === 'good/coder' && attempt.role === 'continuation'),
    );
    const wrong = seen.filter((entry) => {
      if (entry.outcome !== 'served' || entry.servedModel !== 'good/coder') return true;
      const [first, second, ...more] = entry.attempts;
      if (entry.sticky === 'good/coder') return first?.model !== 'good/coder' || second !== undefined;
      return (
        first?.model !== THINKER ||
        first.kind !== 'empty_content' ||
        second?.model !== 'good/coder' ||
        more.length > 0
      );
    });
    checks.push({
      name: `router history: all ${seen.length} ${api} requests served by good/coder, ${continued.length} of them continuing what ${THINKER} thought before it stopped with nothing said`,
      ok: seen.length > 0 && wrong.length === 0 && continued.length > 0,
      detail: [...wrong, ...continued].map(chainOf).join('\n'),
    });
  }
  return checks;
}

/** A Gemini 3 model on Google's API, which refuses tool calls that lost their thought signature. */
const GEMINI = 'googleai/gemini-3.5-flash';

/**
 * What a run on `model` alone must show on each of `faces` (of `who`'s requests, when named): every request
 * served by it at its first attempt, the tool loops' second requests too.
 */
function firstAttemptChecks(
  entries: readonly HistoryEntry[],
  model: string,
  faces: readonly HistoryEntry['api'][] = ['messages', 'responses'],
  who = '',
): Check[] {
  return faces.map((api) => {
    const seen = entries.filter((entry) => entry.api === api);
    const wrong = seen.filter(
      (entry) => entry.outcome !== 'served' || entry.servedModel !== model || entry.attempts.length !== 1,
    );
    return {
      name: `router history: all ${seen.length} ${who}${api} requests served by ${model} at their first attempt`,
      ok: seen.length > 0 && wrong.length === 0,
      detail: wrong.map(chainOf).join('\n'),
    };
  });
}

/** A Gemini run's history: every request served by Gemini at its first attempt (its tool calls went up signed). */
const geminiChecks = (
  entries: readonly HistoryEntry[],
  faces: readonly HistoryEntry['api'][] = ['messages', 'responses'],
  who = '',
): Check[] => firstAttemptChecks(entries, GEMINI, faces, who);

/**
 * The coding model on a host that parses no tool calls: it writes them into its text, alone (the chat
 * agents' round) or on their own line after words (the other agents' round).
 */
const TEXT_CALLER = 'text/calls';
const WORDS_CALLER = 'text/said';

/**
 * What the agents' tool loops sent a model that writes its calls as text: tool results, so each agent got
 * those calls as calls and ran them.
 */
function textCallsCheck(calls: readonly UpstreamCall[], who = '', model = TEXT_CALLER): Check {
  const results = calls.filter((call) => {
    const messages = Array.isArray(call.body?.messages) ? (call.body.messages as { role?: unknown }[]) : [];
    return call.key === model && messages.at(-1)?.role === 'tool';
  });
  return {
    name: `upstream: ${results.length} ${who}tool results came back to ${model}, whose calls were all written as text`,
    ok: results.length >= (who === '' ? 2 : 1),
    detail: `${calls.length} calls`,
  };
}

/**
 * The `Bash` calls that came back to the model writing its calls in Qwen3-Coder's form (in the conversations
 * the agents sent it): each with its `timeout` a number, as the tool's schema types it, not the text it was
 * written as. An agent refuses a call whose arguments its schema does not take.
 */
function typedArgumentsCheck(calls: readonly UpstreamCall[]): Check {
  const timeouts = calls
    .filter((call) => call.key === WORDS_CALLER)
    .flatMap((call) =>
      Array.isArray(call.body?.messages) ? (call.body.messages as Record<string, unknown>[]) : [],
    )
    .flatMap((message) =>
      Array.isArray(message.tool_calls) ? (message.tool_calls as Record<string, unknown>[]) : [],
    )
    .map((toolCall) => toolCall.function as { name?: unknown; arguments?: unknown } | undefined)
    .filter((fn) => fn?.name === 'Bash' && typeof fn.arguments === 'string')
    .map((fn) => (JSON.parse(String(fn?.arguments)) as { timeout?: unknown }).timeout);
  return {
    name: `upstream: all ${timeouts.length} Bash calls sent back to ${WORDS_CALLER} carry their timeout as the number its schema asks`,
    ok: timeouts.length > 0 && timeouts.every((timeout) => timeout === CALL_TIMEOUT_MS),
    detail: JSON.stringify(timeouts),
  };
}

/**
 * What Google got back of its thought signatures in the Gemini round: each tool-calling turn of the agents'
 * requests to Gemini carries the signature Gemini gave that call, not the stand-in.
 */
function geminiSignatureCheck(calls: readonly UpstreamCall[], who = ''): Check {
  const turns = calls
    .filter((call) => call.key === GEMINI)
    .flatMap((call) => toolTurnSignatures(Array.isArray(call.body?.messages) ? call.body.messages : []));
  const wrong = turns.filter(({ id, signature }) => typeof id !== 'string' || signature !== signatureFor(id));
  return {
    name: `upstream: all ${turns.length} ${who}tool-calling turns sent back to ${GEMINI} carry Gemini's own signature`,
    ok: turns.length > 0 && wrong.length === 0,
    detail: wrong.map(({ id, signature }) => `${String(id)}: ${String(signature).slice(0, 40)}`).join('\n'),
  };
}

/** The window the chat round's set has: each agent is told it, as the dashboard's snippet tells it. */
const CHAT_WINDOW = 65_536;

/**
 * The chat-completions agents, each on a daemon of its own over both black holes and the coding model, with
 * the window those models have told to each agent through its snippet; then each on another whose first
 * model dies half-way through every answer.
 */
async function chatRound(
  config: { providers: ReturnType<typeof fakeProviders>; router: object },
  upstream: FakeUpstream,
  scratch: string,
): Promise<Check[]> {
  const route = { holes: ['hole/empty', 'hole/errframe'], served: 'good/coder' };
  const fit = { contextWindow: CHAT_WINDOW };
  const { hole, good } = config.providers;
  const providers = {
    ...config.providers,
    hole: { ...hole, modelFit: { empty: fit, errframe: fit } },
    good: { ...good, modelFit: { coder: fit } },
  };
  const checks: Check[] = [];
  for (const agent of CHAT_AGENTS) {
    const dir = path.join(scratch, `chat-${agent.bin}`);
    const daemon = await startDaemon(
      { ...config, providers, sets: { main: [...route.holes, route.served] }, activeSet: 'main' },
      dir,
    );
    // What the dashboard's setup panel reads before it shows the snippets.
    const window = await fetchContextWindow(daemon.base);
    const callsBefore = upstream.calls.length;
    checks.push(...(await runChatAgent(agent, { base: daemon.base, window }, dir)));
    const calls = upstream.calls.slice(callsBefore).filter((call) => call.key === route.served);
    checks.push(...chatOutputChecks(agent, calls, window));
    checks.push(chatHistoryCheck(agent, await daemon.stop(), route, chainOf));
    // The same agent with its model dying half-way through every answer: each cut answer is finished.
    const dyingDir = `${dir}-dying`;
    const dying = await startDaemon(
      { ...config, providers, sets: { main: [DYING, route.served] }, activeSet: 'main' },
      dyingDir,
    );
    const runs = await runChatAgent(agent, { base: dying.base, window }, dyingDir);
    checks.push(...runs.map((check) => ({ ...check, name: `${check.name}, its model dying half-way` })));
    checks.push(...dyingChecks(await dying.stop(), ['chat'], `${agent.name} `));
    for (const round of ALONE_ROUNDS)
      checks.push(...(await chatAlone(agent, round, { ...config, providers }, upstream, { dir, window })));
  }
  return checks;
}

/** A model a chat agent runs on alone, and what its run must show besides the agent's own checks. */
interface AloneRound {
  model: string;
  /** Said after each of the agent's checks, and the scratch folder's suffix. */
  label: string;
  dir: string;
  /** The upstream's checks over the calls the run made (`who`: the agent's name and a space). */
  upstreamCheck: (calls: readonly UpstreamCall[], who: string) => Check;
}

/**
 * A chat agent on one model alone: its own checks, every request served by that model at its first attempt,
 * and the round's upstream check: on Gemini, Google gets its own signatures back with each call; on the
 * model writing its calls as text, tool results come back, the agent having got those calls as calls.
 */
async function chatAlone(
  agent: ChatAgent,
  round: AloneRound,
  config: { providers: ReturnType<typeof fakeProviders>; router: object },
  upstream: FakeUpstream,
  at: { dir: string; window: number | null },
): Promise<Check[]> {
  const dir = `${at.dir}-${round.dir}`;
  const daemon = await startDaemon({ ...config, sets: { main: [round.model] }, activeSet: 'main' }, dir);
  const callsBefore = upstream.calls.length;
  const runs = await runChatAgent(agent, { base: daemon.base, window: at.window }, dir);
  const who = `${agent.name} `;
  return [
    ...runs.map((check) => ({ ...check, name: `${check.name}, ${round.label}` })),
    ...firstAttemptChecks(await daemon.stop(), round.model, ['chat'], who),
    round.upstreamCheck(upstream.calls.slice(callsBefore), who),
  ];
}

const ALONE_ROUNDS: readonly AloneRound[] = [
  { model: GEMINI, label: 'on Gemini', dir: 'gemini', upstreamCheck: geminiSignatureCheck },
  {
    model: TEXT_CALLER,
    label: 'its model writing calls as text',
    dir: 'text-calls',
    upstreamCheck: textCallsCheck,
  },
];

function report(checks: readonly Check[]): number {
  for (const check of checks) {
    console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}`);
    if (!check.ok)
      console.log(
        check.detail
          .split('\n')
          .slice(-40)
          .map((line) => `     ${line}`)
          .join('\n'),
      );
  }
  const failed = checks.filter((check) => !check.ok).length;
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

async function main(): Promise<number> {
  ensureAgents();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'fcm-agents-'));
  const upstream = await startFakeUpstream();
  // The black holes answer streams and JSON alike with nothing useful.
  upstream.always('hole/empty', byStreaming(sse([roleFrame()]), empty200()));
  upstream.always(
    'hole/errframe',
    byStreaming(sse([roleFrame(), errorFrame()], { done: false }), errorPayload()),
  );
  upstream.always('good/coder', agentModel());
  upstream.always(SMALL, contextWindowOf(4000, agentModel()));
  upstream.always(
    STRICT,
    status(400, {
      body: { error: { message: "Unsupported parameter: 'tools'", type: 'invalid_request_error' } },
    }),
  );
  upstream.always(DYING, agentModelDyingHalfway());
  upstream.always(THINKER, agentModelThinkingOnly());
  upstream.always(GEMINI, geminiOnGoogle());
  upstream.always(TEXT_CALLER, agentModel({ callsAsText: 'alone' }));
  upstream.always(WORDS_CALLER, agentModel({ callsAsText: 'after words' }));
  const models = {
    small: ['ctx'],
    strict: ['params'],
    hole: ['empty', 'errframe'],
    half: ['dies'],
    thinks: ['only'],
    googleai: ['gemini-3.5-flash'],
    text: ['calls', 'said'],
    good: ['coder'],
  };
  // Every model stays CLOSED through every run, so each request meets them in the set's order. Room for
  // five attempts: a first request meets the small model, the strict one (once: its 400 names a parameter,
  // not the output length) and both black holes before the coding model.
  const router = {
    breaker: { failureThreshold: 20, degradedRatio: 1 },
    failover: { maxAttempts: 5 },
  };
  const providers = fakeProviders(upstream, models);
  const checks: Check[] = [];
  if (process.argv.includes('--chat-only')) {
    checks.push(...(await chatRound({ providers, router }, upstream, scratch)));
    return finish(checks, upstream, scratch);
  }

  const setupRound = await startDaemon(
    { providers, sets: { main: ['good/coder'] }, activeSet: 'main', router },
    path.join(scratch, 'setup'),
  );
  checks.push(...(await runSetupRound(setupRound, path.join(scratch, 'setup'))));
  await setupRound.stop();
  if (process.argv.includes('--setup-only')) return finish(checks, upstream, scratch);

  const first = await startDaemon(
    {
      providers,
      sets: { main: [SMALL, STRICT, 'hole/empty', 'hole/errframe', 'good/coder'] },
      activeSet: 'main',
      router,
    },
    path.join(scratch, 'holes'),
  );
  checks.push(...(await runAgents(first.base, path.join(scratch, 'holes'), '')));
  checks.push(...historyChecks(await first.stop()));

  const second = await startDaemon(
    { providers, sets: { main: [DYING, 'good/coder'] }, activeSet: 'main', router },
    path.join(scratch, 'dying'),
  );
  checks.push(...(await runAgents(second.base, path.join(scratch, 'dying'), `, its model dying half-way`)));
  checks.push(...dyingChecks(await second.stop()));

  const third = await startDaemon(
    { providers, sets: { main: [THINKER, 'good/coder'] }, activeSet: 'main', router },
    path.join(scratch, 'thinking'),
  );
  checks.push(
    ...(await runAgents(third.base, path.join(scratch, 'thinking'), `, its first model only thinking`)),
  );
  checks.push(...thinkingChecks(await third.stop()));

  const fourth = await startDaemon(
    { providers, sets: { main: [GEMINI] }, activeSet: 'main', router },
    path.join(scratch, 'gemini'),
  );
  const beforeGemini = upstream.calls.length;
  checks.push(...(await runAgents(fourth.base, path.join(scratch, 'gemini'), `, on Gemini`)));
  checks.push(...geminiChecks(await fourth.stop()));
  checks.push(geminiSignatureCheck(upstream.calls.slice(beforeGemini)));

  const fifth = await startDaemon(
    { providers, sets: { main: [WORDS_CALLER] }, activeSet: 'main', router },
    path.join(scratch, 'text-calls'),
  );
  const beforeText = upstream.calls.length;
  const label = `, its model writing calls as text after words`;
  checks.push(...(await runAgents(fifth.base, path.join(scratch, 'text-calls'), label)));
  checks.push(...firstAttemptChecks(await fifth.stop(), WORDS_CALLER));
  checks.push(textCallsCheck(upstream.calls.slice(beforeText), '', WORDS_CALLER));
  checks.push(typedArgumentsCheck(upstream.calls.slice(beforeText)));
  checks.push(...(await chatRound({ providers, router }, upstream, scratch)));
  return finish(checks, upstream, scratch);
}

async function finish(checks: readonly Check[], upstream: { close(): Promise<void> }, scratch: string) {
  await upstream.close();
  await rm(scratch, { recursive: true, force: true });
  return report(checks);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
