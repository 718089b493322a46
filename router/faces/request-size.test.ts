/**
 * The size estimate against a real tokenizer (o200k, `gpt-tokenizer`) on the recorded Claude Code and Codex
 * requests, as recorded and with a long turn of prose added (their recorded system prompts are trimmed to
 * placeholders, so the recorded bodies are mostly tool schemas): within 25 % each way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer';
import { translateMessagesRequest } from './anthropic-request.js';
import { translateResponsesRequest } from './responses-request.js';
import { estimateNeeds, TOKENS_PER_IMAGE } from './request-size.js';
import { fixture } from './test-kit.js';

const FIXTURES = [
  'claude-code-2.1.332.first-turn.json',
  'claude-code-2.1.332.tool-result-turn.json',
  'codex-0.171.0.first-turn.json',
  'codex-0.171.0.tool-output-turn.json',
  'codex-0.171.0.namespace-tool-output-turn.json',
];

const PROSE = ['how-it-decides.md', 'architecture.md']
  .map((name) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8'))
  .join('\n\n');

interface LooseMessage {
  content?: unknown;
  tool_calls?: { function: { name: string; arguments: string } }[];
}

/** What the model reads, counted by the tokenizer: every text, tool call and tool definition, 4 a message. */
function tokenizerCount(chat: Record<string, unknown>): number {
  const messages = chat.messages as LooseMessage[];
  let tokens = messages.length * 4;
  for (const message of messages) {
    const { content } = message;
    if (typeof content === 'string') tokens += encode(content).length;
    else if (Array.isArray(content))
      for (const part of content as { type: string; text?: string }[])
        if (part.type === 'text') tokens += encode(part.text ?? '').length;
    for (const call of message.tool_calls ?? [])
      tokens += encode(call.function.name + call.function.arguments).length;
  }
  if (Array.isArray(chat.tools)) tokens += encode(JSON.stringify(chat.tools)).length;
  return tokens;
}

/** The agent's body with one more user turn of `text`, in its own protocol. */
function withTurn(name: string, body: Record<string, unknown>, text: string): Record<string, unknown> {
  if (name.startsWith('claude')) {
    const messages = body.messages as unknown[];
    return {
      ...body,
      messages: [...messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: text }],
    };
  }
  const input = body.input as unknown[];
  return {
    ...body,
    input: [...input, { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }],
  };
}

function check(name: string, body: Record<string, unknown>): void {
  const translated = name.startsWith('claude')
    ? translateMessagesRequest(body)
    : translateResponsesRequest(body);
  assert.ok(translated.ok, name);
  const chat = translated.chat as unknown as Record<string, unknown>;
  const estimate = estimateNeeds(Buffer.byteLength(JSON.stringify(body)), chat).input;
  const real = tokenizerCount(chat);
  const ratio = estimate / real;
  assert.ok(ratio > 0.75 && ratio < 1.25, `${name}: estimate ${estimate}, tokenizer ${real}`);
}

test('the estimate is within 25 % of a real tokenizer on every recorded agent request', () => {
  for (const name of FIXTURES) check(name, fixture(name).body);
});

test('the estimate is within 25 % of a real tokenizer with a long turn of prose added', () => {
  for (const name of FIXTURES) check(`${name} + prose`, withTurn(name, fixture(name).body, PROSE));
});

test('the output asked for, tools and images are what the request needs besides its input', () => {
  const image = `data:image/png;base64,${'A'.repeat(300_000)}`;
  const chat = {
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: image } },
        ],
      },
    ],
    tools: [{ type: 'function', function: { name: 'f', parameters: {} } }],
    max_tokens: 32_000,
  };
  const needs = estimateNeeds(Buffer.byteLength(JSON.stringify(chat)), chat);
  assert.equal(needs.output, 32_000);
  assert.equal(needs.tools, true);
  assert.equal(needs.images, true);
  // The image's data is a fixed count, not a token per 4.5 bytes of base64.
  assert.ok(needs.input >= TOKENS_PER_IMAGE && needs.input < TOKENS_PER_IMAGE + 100, String(needs.input));
  const plain = estimateNeeds(100, {
    messages: [{ role: 'user', content: 'hi' }],
    max_completion_tokens: 10,
  });
  assert.deepEqual(plain, { input: 23, output: 10, tools: false, images: false });
});
