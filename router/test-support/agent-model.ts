/**
 * A fake coding model for agent tests, speaking chat completions as a provider would (JSON or SSE, as
 * asked): when the newest user message asks `run: <command>` and the request offers a shell tool (`Bash`
 * for Claude Code, `exec_command` for Codex), it calls that tool; once the tool's result is the newest
 * message, it answers with what the command printed; otherwise it says `AGENT_REPLY`. Asked to continue an
 * answer it began, it gives the rest of it; `agentModelDyingHalfway` dies half-way through its answers.
 */
import type { ServerResponse } from 'node:http';
import { continuedFrom } from './continuing-model.js';
import { sse, type Behaviour } from './upstream-behaviours.js';
import { contentFrame, roleFrame, toolCallFrame } from './upstream-frames.js';

/** What the fake model answers a plain prompt. */
export const AGENT_REPLY = 'Hello from the fake model behind fcm-router.';

type Message = { role?: unknown; content?: unknown };
type Tool = { function?: { name?: unknown } };

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
  const command = /run: (.+)$/m.exec(textOf(last?.content))?.[1]?.trim();
  const tools = Array.isArray(body.tools) ? (body.tools as Tool[]) : [];
  const names = tools.map((tool) => tool.function?.name);
  if (command !== undefined && names.includes('Bash'))
    return { tool: { name: 'Bash', args: JSON.stringify({ command, description: 'Run the command' }) } };
  if (command !== undefined && names.includes('exec_command'))
    return { tool: { name: 'exec_command', args: JSON.stringify({ cmd: command }) } };
  return { text: AGENT_REPLY };
}

/**
 * The model's move for a chat body; asked to continue an answer (the answer so far and an instruction
 * after the conversation), the rest of the text it would have given.
 */
function moveFor(body: Record<string, unknown>): ReturnType<typeof agentMove> {
  const sofar = continuedFrom(body);
  if (sofar === null) return agentMove(body);
  const messages = Array.isArray(body.messages) ? body.messages.slice(0, -2) : [];
  const move = agentMove({ ...body, messages });
  return 'text' in move && move.text.startsWith(sofar) ? { text: move.text.slice(sofar.length) } : move;
}

let calls = 0;

function sendSse(res: ServerResponse, frames: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const frame of frames) res.write(`data: ${JSON.stringify(frame)}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** The fake coding model as a fake-upstream behaviour. */
export const agentModel = (): Behaviour => (res, call) => {
  const body = call.body ?? {};
  const move = moveFor(body);
  const id = `call_fake_${(calls += 1)}`;
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
            { id, type: 'function', function: { name: move.tool.name, arguments: move.tool.args } },
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
 * and its connection drops; a whole answer it asks for breaks off half-way too.
 */
export const agentModelDyingHalfway = (): Behaviour => (res, call) => {
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
  return sse([roleFrame(), frame], { then: 'reset' })(res, call);
};
