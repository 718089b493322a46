/**
 * Chat's `tool_choice: {type: "allowed_tools"}` through the real router: the upstream is offered only the
 * allowed tools, with `required` or `auto` by the choice's mode, or no tools and no choice when none is
 * left; mode `required` forces a call, so a prose answer fails over as `tool_choice_ignored`; a malformed
 * choice is a 400 naming its field; a body offering no tool sends no `tools: []` or choice among them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FACES, askFace, type FaceDriver } from '../test-support/face-answers.js';
import { withScenario } from '../test-support/scenario.js';
import { jsonBody, type Behaviour } from '../test-support/upstream-behaviours.js';
import { completion, toolCallCompletion } from '../test-support/upstream-frames.js';

const chat = FACES.find((face) => face.face === 'chat') as FaceDriver;
const TOOLS = ['Read', 'Write', 'Bash'];
const PROSE = 'I would read README.md first.';

/** An `allowed_tools` choice over the functions named. */
function allowed(mode: string, names: readonly string[]): { tool_choice: object } {
  const tools = names.map((name) => ({ type: 'function', function: { name } }));
  return { tool_choice: { type: 'allowed_tools', allowed_tools: { mode, tools } } };
}

/** An answer that calls `name`. */
const callOf = (name: string): Record<string, unknown> => toolCallCompletion(name, '{}', `call_${name}`);

/** A model that calls the first tool it is offered, or answers in prose when offered none. */
const callsFirstOffered: Behaviour = (res, call) => {
  const tools = (call.body as Sent | null)?.tools ?? [];
  const first = tools[0]?.function.name;
  return jsonBody(first ? callOf(first) : completion(PROSE))(res, call);
};

type Sent = {
  tools?: { function: { name: string } }[];
  tool_choice?: unknown;
  parallel_tool_calls?: unknown;
};

const names = (sent: Sent | undefined): string[] | undefined =>
  sent?.tools?.map((tool) => tool.function.name);

test('allowed_tools on the chat face: only the allowed tools go upstream, required or auto by its mode, none when none is left', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', callsFirstOffered);
    const sent = async (choice: object): Promise<Sent | undefined> => {
      const body = { ...chat.body(false, 'Read it.', TOOLS), parallel_tool_calls: false, ...choice };
      const reply = await askFace(router.url, chat, body);
      assert.equal(reply.status, 200, reply.text);
      return upstream.calls.at(-1)?.body as Sent | undefined;
    };
    const required = await sent(allowed('required', ['Write']));
    assert.deepEqual(names(required), ['Write']);
    assert.equal(required?.tool_choice, 'required');
    assert.equal(required?.parallel_tool_calls, false);
    const auto = await sent(allowed('auto', ['Read', 'Bash', 'Missing']));
    assert.deepEqual(names(auto), ['Read', 'Bash']);
    assert.equal(auto?.tool_choice, 'auto');
    const none = await sent(allowed('required', ['Missing']));
    assert.deepEqual(
      Object.keys(none ?? {}).filter((key) => key.includes('tool')),
      [],
    );
  });
});

test('allowed_tools in mode required forces a call: prose fails over as tool_choice_ignored', async () => {
  const providers = { alpha: ['m1'], beta: ['m2'] };
  await withScenario({ providers }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', jsonBody(completion(PROSE))).always('beta/m2', callsFirstOffered);
    const body = { ...chat.body(false, 'Read it.', TOOLS), ...allowed('required', ['Read']) };
    const reply = await askFace(router.url, chat, body);
    assert.equal(reply.status, 200);
    assert.ok(!reply.text.includes(PROSE), 'the prose never reaches the agent');
    assert.match(reply.text, /call_Read/);
    const attempts = router.lastEntry().attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`);
    assert.deepEqual(attempts, ['alpha/m1:tool_choice_ignored', 'beta/m2:ok']);
  });
});

test('a malformed allowed_tools choice on the chat face is a 400 naming its field', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', callsFirstOffered);
    const refused = async (choice: object): Promise<{ code?: string; param?: string; message?: string }> => {
      const reply = await askFace(router.url, chat, { ...chat.body(false, 'Read it.', TOOLS), ...choice });
      assert.equal(reply.status, 400, reply.text);
      return (JSON.parse(reply.text) as { error: { code?: string; param?: string; message?: string } }).error;
    };
    const mode = await refused(allowed('sometimes', ['Read']));
    assert.equal(mode.code, 'invalid_request');
    assert.equal(mode.param, 'tool_choice.allowed_tools.mode');
    assert.match(mode.message ?? '', /tool_choice\.allowed_tools\.mode/);
    const entry = await refused({
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function' }] } },
    });
    assert.equal(entry.param, 'tool_choice.allowed_tools.tools[0].function');
    const list = await refused({ tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto' } } });
    assert.equal(list.param, 'tool_choice.allowed_tools.tools');
    assert.equal(upstream.calls.length, 0, 'no malformed choice goes upstream');
  });
});

/** An upstream that refuses, as OpenAI's API does, an empty `tools` or a choice among no tools. */
const refusesEmptyOffer: Behaviour = (res, call) => {
  const sent = (call.body ?? {}) as Sent;
  const tools = sent.tools;
  const bare = tools === undefined || tools === null || tools.length === 0;
  const refused = bare && ('tools' in sent || 'tool_choice' in sent || 'parallel_tool_calls' in sent);
  const refusal = { error: { message: "Invalid 'tools': empty array.", type: 'invalid_request_error' } };
  return jsonBody(refused ? refusal : completion(PROSE), refused ? 400 : 200)(res, call);
};

test('a chat body offering no tool is served: its empty tools, choice and parallel_tool_calls stay home', async () => {
  await withScenario({ providers: { alpha: ['m1'], beta: ['m2'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', refusesEmptyOffer).always('beta/m2', refusesEmptyOffer);
    const offers = [
      { tools: [], tool_choice: 'auto', parallel_tool_calls: true },
      { tools: null, tool_choice: 'none' },
      { tool_choice: 'required' },
      { parallel_tool_calls: false },
    ];
    for (const offer of offers) {
      const reply = await askFace(router.url, chat, { ...chat.body(false, 'Say hi.'), ...offer });
      assert.equal(reply.status, 200, `${JSON.stringify(offer)}: ${reply.text}`);
      assert.match(reply.text, /read README\.md/);
      assert.equal(router.lastEntry().attempts.length, 1, JSON.stringify(offer));
      const sent = Object.keys(upstream.calls.at(-1)?.body ?? {});
      assert.deepEqual(
        sent.filter((key) => key.includes('tool')),
        [],
      );
    }
    const named = { tools: [], tool_choice: { type: 'function', function: { name: 'Read' } } };
    const forced = await askFace(router.url, chat, { ...chat.body(false, 'Say hi.'), ...named });
    assert.equal(forced.status, 400, 'a choice forcing a tool among none is still refused');
  });
});
