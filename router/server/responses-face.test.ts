/**
 * `POST /v1/responses` end to end: `openai` (`responses.create`, streamed and not, and `responses.stream`)
 * against the real router over a fake upstream whose first two models are black holes. Each answer comes
 * from the third model after both holes, in the Responses shape, with the decision headers, and history
 * records it on the `responses` face.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { agentModel } from '../test-support/agent-model.js';
import { attemptChain, entryChecks, GOOD, withBlackHoles } from '../test-support/face-scenario.js';
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

const ask = { model: 'fcm', input: 'Say hello.' };
const execCommand = {
  type: 'function' as const,
  name: 'exec_command',
  description: 'Run a command',
  strict: false,
  parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
};

const client = (url: string): OpenAI => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'any', maxRetries: 0 });

const servedDecision = (stream: boolean): string =>
  `good/coder!served|hole/empty:${stream ? 'empty_stream' : 'empty_choices'}->hole/errframe:error_payload->good/coder:200|skips=0`;

const { served: assertServedEntry, sticky: assertStickyEntry } = entryChecks('responses');

/** Reads a streamed `responses.create` to the end: its events' types, the last event, and the decision header. */
async function streamEvents(
  openai: OpenAI,
  body: OpenAI.Responses.ResponseCreateParamsNonStreaming,
): Promise<{
  types: string[];
  last: OpenAI.Responses.ResponseStreamEvent | undefined;
  decision: string | null;
}> {
  const { data, response } = await openai.responses.create({ ...body, stream: true }).withResponse();
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  for await (const event of data) events.push(event);
  assert.deepEqual(
    events.map((event) => event.sequence_number),
    events.map((_, i) => i),
    'sequence numbers count up from 0',
  );
  return {
    types: events.map((event) => event.type),
    last: events.at(-1),
    decision: response.headers.get('x-fcm-v2-decision'),
  };
}

test('responses.create: the answer after both black holes, with the decision headers', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.script(GOOD, jsonBody(completion('Hello there')));
    const { data, response } = await client(router.url).responses.create(ask).withResponse();
    assert.equal(data.output_text, 'Hello there');
    assert.equal(data.status, 'completed');
    assert.equal(data.usage?.total_tokens, 8);
    assert.equal(response.headers.get('x-fcm-v2-decision'), servedDecision(false));
    assertServedEntry(router.lastEntry(), false);
  });
});

test('a streamed response after both black holes: its events in order, and responses.stream', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    const frames = [
      roleFrame(),
      contentFrame('Hel'),
      contentFrame('lo'),
      finishFrame('stop'),
      usageFrame(7, 2),
    ];
    upstream.script(GOOD, sse(frames), sse(frames));
    const openai = client(router.url);
    const { types, last, decision } = await streamEvents(openai, ask);
    assert.deepEqual(types, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    assert.ok(last?.type === 'response.completed');
    const item = last.response.output[0];
    assert.ok(item?.type === 'message');
    assert.deepEqual(
      item.content.map((part) => (part.type === 'output_text' ? part.text : part.type)),
      ['Hello'],
    );
    assert.equal(last.response.usage?.input_tokens, 7);
    assert.equal(decision, servedDecision(true));
    assertServedEntry(router.lastEntry(), true);

    const final = await openai.responses.stream(ask).finalResponse();
    assert.equal(final.output_text, 'Hello');
    assertServedEntry(router.lastEntry(), true);
  });
});

test('a function call round trip, streamed and not: the output reaches the model under its call id', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.always(GOOD, agentModel());
    const openai = client(router.url);
    for (const streamed of [true, false]) {
      type Body = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>;
      const send = (body: Body): Promise<OpenAI.Responses.Response> =>
        streamed ? openai.responses.stream(body).finalResponse() : openai.responses.create(body);
      const input = [{ role: 'user' as const, content: 'run: echo hi' }];
      // Each pass is a conversation of its own: the same words again would stay on the model that served them.
      const instructions = streamed ? 'Streamed pass.' : 'Whole pass.';
      const first = await send({ model: 'fcm', instructions, input, tools: [execCommand] });
      const call = first.output.find((item) => item.type === 'function_call');
      assert.ok(call?.type === 'function_call', 'a function_call item');
      assert.equal(call.name, 'exec_command');
      assert.deepEqual(JSON.parse(call.arguments), { cmd: 'echo hi' });
      assertServedEntry(router.lastEntry(), streamed);

      const output = { type: 'function_call_output' as const, call_id: call.call_id, output: 'hi' };
      const second = await send({
        model: 'fcm',
        instructions,
        input: [...input, call, output],
        tools: [execCommand],
      });
      assert.equal(second.output_text, 'The command printed: hi');
      assertStickyEntry(router.lastEntry(), streamed);
      const sent = upstream.callsTo(GOOD).at(-1)?.body?.messages as Record<string, unknown>[];
      const sentCall = (sent.at(-2)?.tool_calls as { id: string }[] | undefined)?.[0];
      assert.equal(sentCall?.id, call.call_id, 'the assistant turn keeps the call id');
      assert.deepEqual(sent.at(-1), { role: 'tool', tool_call_id: call.call_id, content: 'hi' });
    }
  });
});

test('reasoning cut at its output limit is a reasoning item: with summary text when asked for one, empty when not; streamed and not', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    const message = { role: 'assistant', content: null, reasoning_content: 'Only thinking' };
    const whole = completion('', { choices: [{ index: 0, message, finish_reason: 'length' }] });
    const frames = [roleFrame(), reasoningFrame('Only '), reasoningFrame('thinking'), finishFrame('length')];
    upstream.always(GOOD, byStreaming(sse(frames), jsonBody(whole)));
    const openai = client(router.url);
    const summaryAsked = { ...ask, reasoning: { effort: 'high' as const, summary: 'auto' as const } };
    for (const [body, summary] of [
      [summaryAsked, [{ type: 'summary_text', text: 'Only thinking' }]],
      [ask, []],
    ] as const) {
      for (const streamed of [false, true]) {
        const response = streamed
          ? await openai.responses.stream(body).finalResponse()
          : await openai.responses.create(body);
        assert.equal(response.status, 'incomplete');
        assert.deepEqual(
          response.output.map((item) => (item.type === 'reasoning' ? item.summary : item.type)),
          [summary],
        );
        assertServedEntry(router.lastEntry(), streamed);
      }
    }
  });
});

test('a stream broken after content ends as response.failed, never response.completed; history says partial', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.script(GOOD, sseErrorAfterContent(['partial ']));
    const { types, last, decision } = await streamEvents(client(router.url), ask);
    assert.equal(types.at(-1), 'response.failed');
    assert.ok(!types.includes('response.completed'));
    assert.ok(types.includes('response.output_text.delta'));
    assert.ok(last?.type === 'response.failed');
    assert.equal(last.response.status, 'failed');
    assert.equal(last.response.error?.code, 'server_error');
    assert.match(
      String(last.response.error?.message),
      /good\/coder failed after part of the answer was sent/,
    );
    assert.equal(decision, servedDecision(true));
    const entry = router.lastEntry();
    assert.equal(entry.api, 'responses');
    assert.equal(entry.outcome, 'partial');
    assert.deepEqual(attemptChain(entry.attempts), [
      'hole/empty:empty_stream',
      'hole/errframe:error_payload',
      'good/coder:mid_stream_error',
    ]);
  });
});

test('all failed: an OpenAI error object, its status and the decision headers, streamed or not', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.always(GOOD, status(503));
    const openai = client(router.url);
    for (const [attempt, holeKind] of [
      [() => openai.responses.create(ask), 'empty_choices'],
      [() => openai.responses.stream(ask).finalResponse(), 'empty_stream'],
    ] as const) {
      await assert.rejects(attempt(), (error: unknown) => {
        assert.ok(error instanceof OpenAI.InternalServerError);
        assert.equal(error.status, 503);
        assert.equal(error.code, 'all_models_failed');
        assert.equal(error.type, 'upstream_error');
        assert.match(
          error.message,
          new RegExp(`every model tried failed \\(${holeKind}, error_payload, server_error\\)`),
        );
        assert.equal(
          error.headers?.get('x-fcm-v2-decision'),
          `none!all_failed|hole/empty:${holeKind}->hole/errframe:error_payload->good/coder:503|skips=0`,
        );
        return true;
      });
      const entry = router.lastEntry();
      assert.equal(entry.api, 'responses');
      assert.equal(entry.outcome, 'all_failed');
      assert.equal(entry.clientStatus, 503);
    }
  });
});

test('previous_response_id: a 400 that names the field and says what to send instead; nothing goes upstream', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    await assert.rejects(
      client(router.url).responses.create({ ...ask, previous_response_id: 'resp_earlier' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.equal(error.param, 'previous_response_id');
        assert.equal(error.code, 'invalid_request');
        assert.match(
          error.message,
          /previous_response_id is not supported.*send the whole conversation in `input`/,
        );
        assert.equal(error.headers?.get('x-fcm-v2-decision'), 'none!rejected||skips=0');
        return true;
      },
    );
    assert.equal(upstream.calls.length, 0);
  });
});
