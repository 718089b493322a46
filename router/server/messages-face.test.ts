/**
 * `POST /v1/messages` end to end: `@anthropic-ai/sdk` against the real router over a fake upstream whose
 * first two models are black holes. Each answer, streamed or not, comes from the third model after both
 * holes, in Anthropic's shape, with the decision headers, and history records it on the `messages` face.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { agentModel } from '../test-support/agent-model.js';
import { attemptChain, entryChecks, GOOD, withBlackHoles } from '../test-support/face-scenario.js';
import { httpRequest, sseData } from '../test-support/http-client.js';
import {
  byStreaming,
  jsonBody,
  sse,
  sseErrorAfterContent,
  status,
} from '../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
  usageFrame,
} from '../test-support/upstream-frames.js';

const ask = { model: 'fcm', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Say hello.' }] };
const bash = {
  name: 'Bash',
  description: 'Run a shell command',
  input_schema: { type: 'object' as const, properties: { command: { type: 'string' } } },
};

const client = (url: string): Anthropic => new Anthropic({ baseURL: url, apiKey: 'any', maxRetries: 0 });

/** The decision header of an answer served by `good/coder` after both holes. */
const servedDecision = (stream: boolean): string =>
  `good/coder!served|hole/empty:${stream ? 'empty_stream' : 'empty_choices'}->hole/errframe:error_payload->good/coder:200|skips=0`;

const { served: assertServedEntry, sticky: assertStickyEntry } = entryChecks('messages');

test('messages.create: the answer after both black holes, with the decision headers', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.script(GOOD, jsonBody(completion('Hello there')));
    const { data, response } = await client(router.url).messages.create(ask).withResponse();
    assert.deepEqual(data.content, [{ type: 'text', text: 'Hello there' }]);
    assert.equal(data.stop_reason, 'end_turn');
    assert.deepEqual(data.usage, { input_tokens: 5, output_tokens: 3 });
    assert.equal(response.headers.get('x-fcm-v2-decision'), servedDecision(false));
    assertServedEntry(router.lastEntry(), false);
  });
});

test('messages.stream: the stream after both black holes, usage from the last chunk', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    const frames = [roleFrame(), contentFrame('Hel'), contentFrame('lo'), finishFrame('stop')];
    upstream.script(GOOD, sse([...frames, usageFrame(7, 2)]));
    const stream = client(router.url).messages.stream(ask);
    const { response } = await stream.withResponse();
    const message = await stream.finalMessage();
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello' }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.usage.input_tokens, 7);
    assert.equal(message.usage.output_tokens, 2);
    assert.equal(response.headers.get('x-fcm-v2-decision'), servedDecision(true));
    assertServedEntry(router.lastEntry(), true);
  });
});

test('the stream the client gets is made of the frames the gate judged, however the upstream spaced its lines', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    // One JSON per data line, a blank before each value, no blank lines between events: the gate reads
    // each line as a frame of its own, and so must the translation.
    const lines = [roleFrame(), contentFrame('Hel'), contentFrame('lo'), finishFrame('stop')].map(
      (frame) => `data:  ${JSON.stringify(frame)}\n`,
    );
    upstream.script(GOOD, sse(lines));
    const message = await client(router.url).messages.stream(ask).finalMessage();
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello' }]);
    assert.equal(message.stop_reason, 'end_turn');
    assertServedEntry(router.lastEntry(), true);
  });
});

test('a tool-use round trip, streamed and not: the tool_result reaches the model under its call id', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.always(GOOD, agentModel());
    for (const streamed of [true, false]) {
      const messages = client(router.url).messages;
      const send = (request: Anthropic.MessageCreateParamsNonStreaming): Promise<Anthropic.Message> =>
        streamed ? messages.stream(request).finalMessage() : messages.create(request);
      // Each pass is a conversation of its own: the same words again would stay on the model that served them.
      const system = streamed ? 'Streamed pass.' : 'Whole pass.';
      const first = await send({
        ...ask,
        system,
        tools: [bash],
        messages: [{ role: 'user', content: 'run: echo hi' }],
      });
      assert.equal(first.stop_reason, 'tool_use');
      const toolUse = first.content.find((block) => block.type === 'tool_use');
      assert.ok(toolUse?.type === 'tool_use', 'a tool_use block');
      assert.equal(toolUse.name, 'Bash');
      assert.deepEqual(toolUse.input, { command: 'echo hi', description: 'Run the command' });
      assertServedEntry(router.lastEntry(), streamed);

      const second = await send({
        ...ask,
        system,
        tools: [bash],
        messages: [
          { role: 'user', content: 'run: echo hi' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'hi' }] },
        ],
      });
      assert.deepEqual(second.content, [{ type: 'text', text: 'The command printed: hi' }]);
      assertStickyEntry(router.lastEntry(), streamed);
      const sent = upstream.callsTo(GOOD).at(-1)?.body?.messages as Record<string, unknown>[];
      const call = (sent.at(-2)?.tool_calls as { id: string }[] | undefined)?.[0];
      assert.equal(call?.id, toolUse.id, 'the assistant turn keeps the tool call id');
      assert.deepEqual(sent.at(-1), { role: 'tool', tool_call_id: toolUse.id, content: 'hi' });
    }
  });
});

test('with thinking on, reasoning cut at its output limit is a signed thinking block, streamed and not', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    const message = { role: 'assistant', content: null, reasoning_content: 'Only thinking' };
    const whole = completion('', { choices: [{ index: 0, message, finish_reason: 'length' }] });
    const frames = [roleFrame(), reasoningFrame('Only '), reasoningFrame('thinking'), finishFrame('length')];
    upstream.always(GOOD, byStreaming(sse(frames), jsonBody(whole)));
    const messages = client(router.url).messages;
    const thinking = { ...ask, thinking: { type: 'adaptive' as const } };
    for (const streamed of [false, true]) {
      const answer = streamed
        ? await messages.stream(thinking).finalMessage()
        : await messages.create(thinking);
      assert.deepEqual(answer.content, [
        { type: 'thinking', thinking: 'Only thinking', signature: 'fcm-router' },
      ]);
      assert.equal(answer.stop_reason, 'max_tokens');
      assertServedEntry(router.lastEntry(), streamed);
    }
  });
});

test('a stream broken after content ends with an error event and no message_stop; history says partial', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.script(GOOD, sseErrorAfterContent(['partial ']), sseErrorAfterContent(['partial ']));
    const stream = client(router.url).messages.stream(ask);
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    await assert.rejects(stream.finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError);
      assert.match(error.message, /api_error.*good\/coder failed after part of the answer was sent/);
      return true;
    });
    assert.deepEqual(texts, ['partial ']);

    const raw = await httpRequest(`${router.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'any' },
      body: JSON.stringify({ ...ask, stream: true }),
    });
    assert.equal(raw.status, 200);
    assert.equal(raw.headers['x-fcm-v2-decision'], servedDecision(true));
    const types = sseData(raw.text).map((event) => (event as { type: string }).type);
    assert.deepEqual(types, ['message_start', 'content_block_start', 'content_block_delta', 'error']);
    const entry = router.lastEntry();
    assert.equal(entry.api, 'messages');
    assert.equal(entry.outcome, 'partial');
    assert.deepEqual(attemptChain(entry.attempts), [
      'hole/empty:empty_stream',
      'hole/errframe:error_payload',
      'good/coder:mid_stream_error',
    ]);
  });
});

test('all failed: an Anthropic error body, its status and the decision headers, streamed or not', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.always(GOOD, status(503));
    const messages = client(router.url).messages;
    for (const [attempt, holeKind] of [
      [() => messages.create(ask), 'empty_choices'],
      [() => messages.stream(ask).finalMessage(), 'empty_stream'],
    ] as const) {
      await assert.rejects(attempt(), (error: unknown) => {
        assert.ok(error instanceof Anthropic.InternalServerError);
        assert.equal(error.status, 503);
        assert.deepEqual(error.error, {
          type: 'error',
          error: {
            type: 'overloaded_error',
            message: `fcm-router: every model tried failed (${holeKind}, error_payload, server_error)`,
          },
        });
        assert.equal(
          error.headers.get('x-fcm-v2-decision'),
          `none!all_failed|hole/empty:${holeKind}->hole/errframe:error_payload->good/coder:503|skips=0`,
        );
        assert.ok(Number(error.headers.get('retry-after')) >= 1);
        return true;
      });
      const entry = router.lastEntry();
      assert.equal(entry.api, 'messages');
      assert.equal(entry.outcome, 'all_failed');
      assert.equal(entry.clientStatus, 503);
      assert.equal(entry.attempts.length, 3);
    }
  });
});
