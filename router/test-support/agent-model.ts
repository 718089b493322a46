/**
 * A fake coding model for agent tests, speaking chat completions as a provider would (JSON or SSE, as
 * asked): when the newest user message asks `run: <command>` and the request offers a shell tool (see
 * `SHELL_TOOLS`), it calls that tool; asked `write: <file> <line>` with Codex's freeform `apply_patch` offered
 * (as the router offers it: a function of one string, `input`), it calls that with a patch adding the file;
 * once the tool's result is the newest message, it answers with what the command printed; otherwise it says
 * `AGENT_REPLY`. Asked by the router to continue an answer it began,
 * it gives the rest of it (or, after thoughts alone, its move); with `callsAsText` it writes its calls into its
 * text (alone, or after words in Qwen3-Coder's form), as a model whose provider parses no tool calls; `agentModelDyingHalfway` dies half-way
 * through its answers, and `agentModelThinkingOnly` thinks and then says nothing.
 */
import type { ServerResponse } from 'node:http';
import { CONTINUE_TEXT, THOUGHTS_CUT } from '../engine/stream/continuation-request.js';
import { continuedFrom } from './continuing-model.js';
import { byStreaming, jsonBody, sse, type Behaviour } from './upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
  toolCallFrame,
  usageFrame,
} from './upstream-frames.js';

/** What the fake model answers a plain prompt. */
export const AGENT_REPLY = 'Hello from the fake model behind fcm-router.';

type Message = { role?: unknown; content?: unknown };
type Tool = {
  function?: { name?: unknown; parameters?: { properties?: Record<string, { type?: unknown } | undefined> } };
};

/** The text of a chat message's content (a string or text parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('\n');
}

/**
 * Each agent's shell tool and the arguments that run `command` with it: Claude Code and Continue's `Bash`,
 * Codex's `exec_command`, OpenCode's `bash`, Qwen Code's `run_shell_command`.
 */
const SHELL_TOOLS: Readonly<Record<string, (command: string) => Record<string, string>>> = {
  Bash: (command) => ({ command, description: 'Run the command' }),
  exec_command: (command) => ({ cmd: command }),
  bash: (command) => ({ command, description: 'Run the command' }),
  run_shell_command: (command) => ({ command, description: 'Run the command' }),
};

/** The patch that adds `file` holding `line`, in Codex's `apply_patch` format. */
export const addFilePatch = (file: string, line: string): string =>
  `*** Begin Patch\n*** Add File: ${file}\n+${line}\n*** End Patch\n`;

/** The tool call `write: <file> <line>` asks for, when the newest message asks it and `apply_patch` is offered. */
function writeMove(text: string, offered: readonly unknown[]): { name: string; args: string } | null {
  const asked = /^"?write: (\S+) (.+?)"?$/m.exec(text);
  if (asked === null || !offered.includes('apply_patch')) return null;
  return {
    name: 'apply_patch',
    args: JSON.stringify({ input: addFilePatch(asked[1] ?? '', asked[2] ?? '') }),
  };
}

/** The model's next move for a chat body: a tool call, or text. */
export function agentMove(
  body: Record<string, unknown>,
): { tool: { name: string; args: string } } | { text: string } {
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    const printed = textOf(last.content).match(/fcm-agent-[\w-]+/)?.[0] ?? textOf(last.content).trim();
    return { text: `The command printed: ${printed}` };
  }
  // A line of its own (an agent's instructions may say "this run: …"); OpenCode's `run` sends the prompt in
  // double quotes, which are not the command's.
  const command = /^"?run: (.+?)"?$/m.exec(textOf(last?.content))?.[1]?.trim();
  const tools = Array.isArray(body.tools) ? (body.tools as Tool[]) : [];
  const offered = tools.map((tool) => tool.function?.name);
  const write = writeMove(textOf(last?.content), offered);
  if (write !== null) return { tool: write };
  const name = offered.find((n): n is string => typeof n === 'string' && n in SHELL_TOOLS);
  const args = name === undefined ? undefined : SHELL_TOOLS[name];
  if (command !== undefined && name !== undefined && args !== undefined)
    return { tool: { name, args: JSON.stringify(args(command)) } };
  return { text: AGENT_REPLY };
}

/**
 * The model's move for a chat body; asked to continue an answer (the answer so far and the router's
 * instruction after the conversation), the rest of the text it would have given. An agent's own next turn
 * after an answer (Qwen Code's memory pass, say) is not a continuation.
 */
function moveFor(body: Record<string, unknown>): ReturnType<typeof agentMove> {
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  // After thoughts alone, the move the conversation asks for: the thoughts were the model's own.
  if (textOf(messages.at(-1)?.content).startsWith(THOUGHTS_CUT))
    return agentMove({ ...body, messages: messages.slice(0, -1) });
  const sofar = messages.at(-1)?.content === CONTINUE_TEXT ? continuedFrom(body) : null;
  if (sofar === null) return agentMove(body);
  const move = agentMove({ ...body, messages: messages.slice(0, -2) });
  return 'text' in move && move.text.startsWith(sofar) ? { text: move.text.slice(sofar.length) } : move;
}

let calls = 0;

function sendSse(res: ServerResponse, frames: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const frame of frames) res.write(`data: ${JSON.stringify(frame)}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** How a model's tool calls differ from the plain fake's. */
export interface AgentModelOptions {
  /** What a provider adds to a tool call it makes (`extra_content`), by the call's id. */
  callExtra?: (id: string) => Record<string, unknown>;
  /**
   * It writes its tool calls into its text (finishing with `stop`), as a model does whose provider parses no
   * tool calls: `alone`, Hermes-style (`<tool_call>{"name": …, "arguments": …}</tool_call>`), or `after words`
   * saying what it will do, on their own line in Qwen3-Coder's form
   * (`<tool_call><function=name><parameter=key>value</parameter>…`).
   */
  callsAsText?: 'alone' | 'after words';
}

/** What the model says before a call it writes `after words`. */
export const WORDS_BEFORE_CALL = 'I will run that now.';

/** A call's arguments as Qwen3-Coder writes them: a parameter each, a string as it is, other values as JSON. */
function parameterList(args: string): string {
  const values = JSON.parse(args) as Record<string, unknown>;
  return Object.entries(values)
    .map(
      ([key, value]) =>
        `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>`,
    )
    .join('\n');
}

/** The time a call written after words gives its tool, when the tool's schema takes a numeric `timeout`. */
export const CALL_TIMEOUT_MS = 120_000;

/**
 * A call's arguments with a `timeout` when the offered tool's schema takes a number there (Claude Code's
 * `Bash`): a value the router must type from the schema, or the agent refuses the call.
 */
function withTimeout(tool: { name: string; args: string }, offered: unknown): string {
  const schema = (Array.isArray(offered) ? (offered as Tool[]) : []).find(
    (t) => t.function?.name === tool.name,
  )?.function?.parameters?.properties?.timeout?.type;
  if (schema !== 'number' && schema !== 'integer') return tool.args;
  return JSON.stringify({ ...(JSON.parse(tool.args) as object), timeout: CALL_TIMEOUT_MS });
}

/** A tool call written as text: Hermes-style alone, or in Qwen3-Coder's form after words. */
function callAsText(
  tool: { name: string; args: string },
  form: 'alone' | 'after words',
  offered: unknown,
): string {
  if (form === 'alone')
    return `<tool_call>\n{"name": ${JSON.stringify(tool.name)}, "arguments": ${tool.args}}\n</tool_call>`;
  const params = parameterList(withTimeout(tool, offered));
  const block = `<tool_call>\n<function=${tool.name}>\n${params}\n</function>\n</tool_call>`;
  return `${WORDS_BEFORE_CALL}\n\n${block}`;
}

/** The fake coding model as a fake-upstream behaviour. */
export const agentModel =
  (options: AgentModelOptions = {}): Behaviour =>
  (res, call) => {
    const body = call.body ?? {};
    const planned = moveFor(body);
    const move =
      options.callsAsText !== undefined && 'tool' in planned
        ? { text: callAsText(planned.tool, options.callsAsText, body.tools) }
        : planned;
    const id = `call_fake_${(calls += 1)}`;
    const extra = options.callExtra === undefined ? {} : { extra_content: options.callExtra(id) };
    const base = { id: 'chatcmpl-agent', object: 'chat.completion.chunk', created: 0, model: 'fake-coder' };
    const usage = { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 };
    if (body.stream === true) {
      const delta =
        'tool' in move
          ? {
              role: 'assistant',
              tool_calls: [
                {
                  index: 0,
                  id,
                  type: 'function',
                  function: { name: move.tool.name, arguments: move.tool.args },
                  ...extra,
                },
              ],
            }
          : { role: 'assistant', content: move.text };
      const finish = 'tool' in move ? 'tool_calls' : 'stop';
      return sendSse(res, [
        { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
        { ...base, choices: [], usage },
      ]);
    }
    const message =
      'tool' in move
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id,
                type: 'function',
                function: { name: move.tool.name, arguments: move.tool.args },
                ...extra,
              },
            ],
          }
        : { role: 'assistant', content: move.text };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: 'tool' in move ? 'tool_calls' : 'stop' }],
        usage,
      }),
    );
  };

/**
 * The same model on a bad day: it streams the first half of its move (text, or a tool call's arguments)
 * and its stream is cut, in turn by a dropped connection and by a clean close with neither a finish reason
 * nor `[DONE]` (as a proxy that cuts long streams does); a whole answer it asks for breaks off half-way too.
 */
export const agentModelDyingHalfway = (): Behaviour => {
  let streams = 0;
  return (res, call) => dyingHalfway(res, call, (streams += 1) % 2 === 0 ? 'ends' : 'reset');
};

function dyingHalfway(
  res: Parameters<Behaviour>[0],
  call: Parameters<Behaviour>[1],
  cut: 'reset' | 'ends',
): ReturnType<Behaviour> {
  const body = call.body ?? {};
  const move = moveFor(body);
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id":"chatcmpl-agent","object":"chat.completion","choices":[{"index":0,"message":');
    res.socket?.destroy();
    return;
  }
  const half = (text: string): string => text.slice(0, Math.ceil(text.length / 2));
  const frame =
    'tool' in move
      ? toolCallFrame(0, half(move.tool.args), { id: `call_half_${(calls += 1)}`, name: move.tool.name })
      : contentFrame(half(move.text));
  return sse([roleFrame(), frame], cut === 'reset' ? { then: 'reset' } : { done: false })(res, call);
}

/** What the thinking model thinks, every time. */
export const AGENT_THOUGHTS = 'The user wants something. Let me think it over.';

/**
 * A thinking model that stops having said nothing: its reasoning, then a clean end (`stop`, usage and
 * `[DONE]` when streamed), with no text and no tool call. Every other answer writes its reasoning into the
 * text as a think block, as some models do.
 */
export const agentModelThinkingOnly = (): Behaviour => {
  const asField = thinkingOnly({ reasoning_content: AGENT_THOUGHTS }, (piece) => reasoningFrame(piece));
  const asText = thinkingOnly({ content: `<think>${AGENT_THOUGHTS}</think>\n` }, (piece) =>
    contentFrame(piece),
  );
  let answers = 0;
  return (res, call) => ((answers += 1) % 2 === 1 ? asField : asText)(res, call);
};

function thinkingOnly(
  thoughts: Record<string, string>,
  frameOf: (piece: string) => Record<string, unknown>,
): Behaviour {
  const message = { role: 'assistant', content: null, ...thoughts };
  const whole = completion('', { choices: [{ index: 0, message, finish_reason: 'stop' }] });
  const said = Object.values(thoughts)[0] ?? '';
  const pieces = [said.slice(0, 5), said.slice(5, 30), said.slice(30)];
  const frames = [
    roleFrame(),
    ...pieces.map((piece) => frameOf(piece)),
    finishFrame('stop'),
    usageFrame(50, 9),
  ];
  return byStreaming(sse(frames), jsonBody(whole));
}
