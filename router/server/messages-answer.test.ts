/**
 * What a Messages answer says beside its content, end to end with `@anthropic-ai/sdk` against the real
 * router over a fake upstream: thinking blocks only for a request that turned thinking on (empty when it
 * asked for them omitted), input tokens
 * even where the upstream counts none, and the stop sequence that ended an answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { estimateNeeds } from '../faces/request-size.js';
import { httpRequest, sseData } from '../test-support/http-client.js';
import { withScenario, type Scenario } from '../test-support/scenario.js';
import { byStreaming, jsonBody, sse } from '../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
} from '../test-support/upstream-frames.js';

const GOOD = 'good/coder';
const ask = {
  model: 'fcm',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'What is 2+2?' }],
};

const client = (url: string): Anthropic => new Anthropic({ baseURL: url, apiKey: 'any', maxRetries: 0 });
const oneModel = (run: (scenario: Scenario) => Promise<void>): Promise<void> =>
  withScenario({ providers: { good: ['coder'] } }, run);

/** Both ways of asking: a whole message and a stream, read to its final message. */
const bothWays = async (url: string, request: Anthropic.MessageCreateParamsNonStreaming) => [
  await client(url).messages.create(request),
  await client(url).messages.stream(request).finalMessage(),
];

test('a reasoning model answers with a thinking block only when the request turned thinking on', async () => {
  await oneModel(async ({ router, upstream }) => {
    const message = { role: 'assistant', content: '4', reasoning_content: 'A sum.' };
    const whole = completion('4', { choices: [{ index: 0, message, finish_reason: 'stop' }] });
    const frames = [roleFrame(), reasoningFrame('A sum.'), contentFrame('4'), finishFrame('stop')];
    upstream.always(GOOD, byStreaming(sse(frames), jsonBody(whole)));
    const off = [...(await bothWays(router.url, ask))];
    off.push(...(await bothWays(router.url, { ...ask, thinking: { type: 'disabled' } })));
    for (const answer of off) assert.deepEqual(answer.content, [{ type: 'text', text: '4' }]);
    for (const thinking of [
      { type: 'adaptive' as const },
      { type: 'enabled' as const, budget_tokens: 512 },
    ]) {
      for (const answer of await bothWays(router.url, { ...ask, thinking })) {
        assert.deepEqual(answer.content, [
          { type: 'thinking', thinking: 'A sum.', signature: 'fcm-router' },
          { type: 'text', text: '4' },
        ]);
      }
    }
    // Claude Code asks for its thinking omitted: the block comes empty, as Anthropic's does then.
    const omitted = { type: 'adaptive', display: 'omitted' } as unknown as Anthropic.ThinkingConfigParam;
    for (const answer of await bothWays(router.url, { ...ask, thinking: omitted })) {
      assert.deepEqual(answer.content, [
        { type: 'thinking', thinking: '', signature: 'fcm-router' },
        { type: 'text', text: '4' },
      ]);
    }
  });
});

test("the router's estimate of the input is in message_start, and in the final usage when the upstream counts none", async () => {
  await oneModel(async ({ router, upstream }) => {
    const whole = {
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
    };
    const frames = [roleFrame(), contentFrame('Hi'), finishFrame('stop')];
    upstream.always(GOOD, byStreaming(sse(frames), jsonBody(whole)));
    const system = 'You are a coding agent. '.repeat(2000);
    const post = async (stream: boolean): Promise<{ text: string; estimate: number }> => {
      const body = JSON.stringify({ ...ask, system, stream });
      const reply = await httpRequest(`${router.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      assert.equal(reply.status, 200);
      return { text: reply.text, estimate: estimateNeeds(Buffer.byteLength(body), {}).input };
    };
    const streamed = await post(true);
    assert.ok(streamed.estimate > 10_000, 'a prompt of some size');
    const events = sseData(streamed.text) as {
      type: string;
      message?: { usage: unknown };
      usage?: unknown;
    }[];
    const start = events.find((event) => event.type === 'message_start');
    assert.deepEqual(start?.message?.usage, { input_tokens: streamed.estimate, output_tokens: 0 });
    const end = events.find((event) => event.type === 'message_delta');
    assert.deepEqual(end?.usage, { output_tokens: 0, input_tokens: streamed.estimate });
    const json = await post(false);
    const message = JSON.parse(json.text) as { usage: unknown };
    assert.deepEqual(message.usage, { input_tokens: json.estimate, output_tokens: 0 });
  });
});

test('an answer the upstream stopped on one of stop_sequences: stop_reason stop_sequence, naming it', async () => {
  await oneModel(async ({ router, upstream }) => {
    // vLLM names the stop string in `stop_reason`, SGLang in `matched_stop`.
    for (const named of [{ stop_reason: '</answer>' }, { matched_stop: '</answer>' }]) {
      const choice = { index: 0, finish_reason: 'stop', ...named };
      const message = { role: 'assistant', content: '<answer>4' };
      const whole = completion('<answer>4', { choices: [{ ...choice, message }] });
      const last = { id: 'c', object: 'chat.completion.chunk', choices: [{ ...choice, delta: {} }] };
      upstream.always(
        GOOD,
        byStreaming(sse([roleFrame(), contentFrame('<answer>4'), last]), jsonBody(whole)),
      );
      for (const answer of await bothWays(router.url, { ...ask, stop_sequences: ['</answer>'] })) {
        assert.equal(answer.stop_reason, 'stop_sequence');
        assert.equal(answer.stop_sequence, '</answer>');
      }
      for (const answer of await bothWays(router.url, ask)) {
        assert.equal(answer.stop_reason, 'end_turn', 'a stop string the request did not ask for');
        assert.equal(answer.stop_sequence, null);
      }
    }
  });
});
