/**
 * Gemini's thought signatures go back to Google with their calls, whatever the agent kept of them: on each
 * face, streamed or not, a tool loop's second turn reaches Google with the signature Google gave the call
 * in the first, not the stand-in. Chat agents get the signature with the call as Google sent it; no other
 * provider gets one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayFixture } from '../faces/test-kit.js';
import { STAND_IN_SIGNATURE } from '../upstream/gemini-conversation.js';
import { agentModel } from '../test-support/agent-model.js';
import { httpRequest, type HttpReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { geminiOnGoogle, signatureFor, toolTurnSignatures } from '../test-support/google-model.js';

const COMMAND = 'echo fcm-agent-signed';
const PRINTED = 'fcm-agent-signed';
const schema = { type: 'object', properties: { command: { type: 'string' } } };

interface Face {
  name: string;
  path: string;
  /** The loop's turn: its first (no `id`), or its second, with the call `id` and its result. */
  turn: (stream: boolean, id?: string) => Record<string, unknown>;
}

const FACES: Face[] = [
  {
    name: 'chat completions',
    path: '/v1/chat/completions',
    turn: (stream, id) => ({
      model: 'fcm',
      stream,
      tools: [{ type: 'function', function: { name: 'bash', parameters: schema } }],
      messages: [
        { role: 'user', content: `run: ${COMMAND}` },
        ...(id === undefined
          ? []
          : [
              {
                role: 'assistant',
                content: null,
                tool_calls: [
                  {
                    id,
                    type: 'function',
                    function: { name: 'bash', arguments: JSON.stringify({ command: COMMAND }) },
                  },
                ],
              },
              { role: 'tool', tool_call_id: id, content: PRINTED },
            ]),
      ],
    }),
  },
  {
    name: 'Messages',
    path: '/v1/messages',
    turn: (stream, id) => ({
      model: 'fcm',
      max_tokens: 1024,
      stream,
      tools: [{ name: 'Bash', input_schema: schema }],
      messages: [
        { role: 'user', content: `run: ${COMMAND}` },
        ...(id === undefined
          ? []
          : [
              {
                role: 'assistant',
                content: [{ type: 'tool_use', id, name: 'Bash', input: { command: COMMAND } }],
              },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: PRINTED }] },
            ]),
      ],
    }),
  },
  {
    name: 'Responses',
    path: '/v1/responses',
    turn: (stream, id) => ({
      model: 'fcm',
      stream,
      tools: [{ type: 'function', name: 'exec_command', parameters: schema }],
      input: [
        { role: 'user', content: `run: ${COMMAND}` },
        ...(id === undefined
          ? []
          : [
              {
                type: 'function_call',
                call_id: id,
                name: 'exec_command',
                arguments: JSON.stringify({ cmd: COMMAND }),
              },
              { type: 'function_call_output', call_id: id, output: PRINTED },
            ]),
      ],
    }),
  },
];

const post = (url: string, body: unknown): Promise<HttpReply> =>
  httpRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

for (const face of FACES) {
  test(`a tool loop's second turn on ${face.name} reaches Google with the signature Google gave its call`, async () => {
    // A scenario of its own per face: Google's free tier allows a few requests a minute.
    await withScenario({ providers: { googleai: ['gemini-3.5-flash'] } }, async ({ router, upstream }) => {
      upstream.always('googleai/gemini-3.5-flash', geminiOnGoogle());
      for (const stream of [false, true]) {
        const what = `${face.name}, ${stream ? 'streamed' : 'JSON'}`;
        const first = await post(`${router.url}${face.path}`, face.turn(stream));
        assert.equal(first.status, 200, `${what}: ${first.text.slice(0, 300)}`);
        const id = /call_fake_\d+/.exec(first.text)?.[0];
        assert.ok(id !== undefined, `${what}: the model called the tool (${first.text.slice(0, 300)})`);
        if (face.name === 'chat completions')
          assert.ok(
            first.text.includes(signatureFor(id)),
            `${what}: the agent got the call as Google made it`,
          );
        const second = await post(`${router.url}${face.path}`, face.turn(stream, id));
        assert.equal(second.status, 200, `${what}: ${second.text.slice(0, 300)}`);
        assert.ok(second.text.includes(PRINTED), `${what}: the model answered the tool's result`);
        const messages = upstream.calls.at(-1)?.body?.messages;
        assert.deepEqual(
          toolTurnSignatures(Array.isArray(messages) ? messages : []),
          [{ id, signature: signatureFor(id) }],
          `${what}: Google's own signature went back with its call`,
        );
      }
    });
  });
}

test("a signature an agent sends back reaches Google as it came, Gemini 2.5 too, and no other provider's model", async () => {
  const signed = {
    id: 'function-call-7',
    type: 'function',
    function: { name: 'bash', arguments: '{}' },
    extra_content: { google: { thought_signature: 'CrICAdHtim827fQ' }, vendor: 'kept' },
  };
  const body = {
    model: 'fcm',
    tools: [{ type: 'function', function: { name: 'bash', parameters: schema } }],
    messages: [
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: null, tool_calls: [signed] },
      { role: 'tool', tool_call_id: 'function-call-7', content: 'a.ts' },
    ],
  };
  await withScenario({ providers: { googleai: ['gemini-3.5-flash'] } }, async ({ router, upstream }) => {
    upstream.always('googleai/gemini-3.5-flash', geminiOnGoogle());
    assert.equal((await post(`${router.url}/v1/chat/completions`, body)).status, 200);
    const sent = upstream.calls[0]?.body?.messages as { tool_calls?: unknown[] }[];
    assert.deepEqual(sent[1]?.tool_calls, [signed]);
  });
  // Gemini before 3 takes its own signatures back too, and gets no stand-in where there is none.
  await withScenario({ providers: { googleai: ['gemini-2.5-flash'] } }, async ({ router, upstream }) => {
    upstream.always('googleai/gemini-2.5-flash', agentModel());
    assert.equal((await post(`${router.url}/v1/chat/completions`, body)).status, 200);
    const sent = upstream.calls[0]?.body?.messages as { tool_calls?: unknown[] }[];
    assert.deepEqual(sent[1]?.tool_calls, [signed]);
    const reply = await replayFixture(router.url, 'codex-0.171.0.tool-output-turn.json');
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    assert.ok(!JSON.stringify(upstream.calls[1]?.body).includes(STAND_IN_SIGNATURE), 'no stand-in');
  });
  await withScenario({ providers: { host: ['qwen3-coder'] } }, async ({ router, upstream }) => {
    upstream.always('host/qwen3-coder', agentModel());
    assert.equal((await post(`${router.url}/v1/chat/completions`, body)).status, 200);
    const sent = upstream.calls[0]?.body?.messages as { tool_calls?: unknown[] }[];
    const { extra_content: _extra, ...plain } = signed;
    assert.deepEqual(sent[1]?.tool_calls, [{ ...plain, extra_content: { vendor: 'kept' } }]);
  });
});
