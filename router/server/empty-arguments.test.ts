/**
 * A tool call the upstream sent with empty arguments (`""`, as some providers send a call of a tool without
 * parameters) reaches every agent as the empty object, on every face, streamed or not, with calls checked or
 * not: end to end over a fake upstream, and with `openai`'s `responses.parse`, which parses a strict
 * function's arguments and throws on anything but JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ConfigInput } from '../config/schema.js';
import { askFace, FACES, type FaceDriver } from '../test-support/face-answers.js';
import { parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { byStreaming, jsonBody, sse } from '../test-support/upstream-behaviours.js';
import {
  finishFrame,
  roleFrame,
  toolCallCompletion,
  toolCallFrame,
} from '../test-support/upstream-frames.js';

const GOOD = 'good/coder';
type Validation = NonNullable<NonNullable<ConfigInput['router']>['failover']>['contentValidation'];

/** A call of `Read` with empty arguments, streamed or whole. */
const emptyArgsCall = byStreaming(
  sse([roleFrame(), toolCallFrame(0, '', { id: 'call_1', name: 'Read' }), finishFrame('tool_calls')]),
  jsonBody(toolCallCompletion('Read', '', 'call_1')),
);

type Body = Record<string, unknown>;
const list = (value: unknown): Body[] => (Array.isArray(value) ? (value as Body[]) : []);

/** The arguments of the first tool call of a face's whole answer, as the agent reads them. */
function wholeArguments(face: FaceDriver['face'], answer: Body): unknown {
  if (face === 'chat') {
    const message = list(answer.choices)[0]?.message as Body;
    return (list(message.tool_calls)[0]?.function as Body).arguments;
  }
  if (face === 'messages')
    return JSON.stringify(list(answer.content).find((b) => b.type === 'tool_use')?.input);
  return list(answer.output).find((item) => item.type === 'function_call')?.arguments;
}

/**
 * A streamed call's arguments as the agent reads them: a Messages `tool_use` block that got no
 * `input_json_delta` keeps the `input` it started with, `{}`.
 */
const streamedArguments = (face: FaceDriver['face'], args: string): string =>
  face === 'messages' && args === '' ? '{}' : args;

for (const contentValidation of ['strict', 'basic'] as const satisfies readonly Validation[]) {
  test(`${contentValidation}: a call sent with empty arguments reaches every face with {}, streamed or not`, async () => {
    const options = { providers: { good: ['coder'] }, failover: { contentValidation } };
    const got: Record<string, unknown> = {};
    await withScenario(options, async ({ router, upstream }) => {
      upstream.always(GOOD, emptyArgsCall);
      for (const face of FACES) {
        for (const stream of [false, true]) {
          // Unchecked, a chat stream is relayed as the provider wrote it.
          if (face.face === 'chat' && stream && contentValidation !== 'strict') continue;
          const reply = await askFace(router.url, face, face.body(stream, 'Read.', ['Read']));
          assert.equal(reply.status, 200, reply.text);
          got[`${face.face}${stream ? ' stream' : ''}`] = stream
            ? face.read(reply.text).tools.map((tool) => streamedArguments(face.face, tool.args))
            : [wholeArguments(face.face, parseReply<Body>(reply))];
        }
      }
    });
    assert.deepEqual(got, Object.fromEntries(Object.keys(got).map((key) => [key, ['{}']])));
  });
}

test('responses.parse with a strict function tool: a call sent with empty arguments parses to {}', async () => {
  await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
    upstream.always(GOOD, emptyArgsCall);
    const openai = new OpenAI({ baseURL: `${router.url}/v1`, apiKey: 'any', maxRetries: 0 });
    const parameters = { type: 'object', properties: {}, required: [], additionalProperties: false };
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', name: 'Read', strict: true, parameters },
    ];
    const body = { model: 'fcm', input: 'Read.', tools };
    const answers = [await openai.responses.parse(body), await openai.responses.stream(body).finalResponse()];
    for (const answer of answers) {
      const call = answer.output.find((item) => item.type === 'function_call');
      assert.deepEqual(call && { arguments: call.arguments, parsed: call.parsed_arguments }, {
        arguments: '{}',
        parsed: {},
      });
    }
  });
});
