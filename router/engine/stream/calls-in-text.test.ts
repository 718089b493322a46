/**
 * Tool calls a model writes into its text (after a think block too) reach the agent as calls, on each face,
 * streamed or whole, alone or on their own lines after words: the text waits while it may be such calls, so no
 * markup goes out; markup that cannot be read fails over unseen as `invalid_tool_call`; words that only begin
 * like markup, markup shown in a fence, and JSON that is no call, pass as text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CALLS_FROM_TEXT_NOTE } from '../booking/attempt-effects.js';
import { askFace, FACES, type FaceDriver } from '../../test-support/face-answers.js';
import { withScenario } from '../../test-support/scenario.js';
import { byStreaming, jsonBody, sse } from '../../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
  toolCallFrame,
} from '../../test-support/upstream-frames.js';

const TWO = {
  providers: { alpha: ['m1'], beta: ['m2'] },
  breaker: { failureThreshold: 20, degradedRatio: 1 },
};
const ARGS = '{"path":"README.md"}';
const HERMES = `<tool_call>\n{"name": "Read", "arguments": ${ARGS}}\n</tool_call>`;
/** Qwen3-Coder's own form: its values typed by the tool's schema. */
const XML_CALL =
  '<tool_call>\n<function=Read>\n<parameter=path>\nREADME.md\n</parameter>\n<parameter=limit>\n20\n</parameter>\n</function>\n</tool_call>';
const READ_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' }, limit: { type: 'integer' } },
};
/** DeepSeek's call tokens. */
const DEEPSEEK_CALL = `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>Read\n\`\`\`json\n${ARGS}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`;
/** The same, cut in its arguments: it cannot be read. */
const DEEPSEEK_CUT = DEEPSEEK_CALL.slice(0, DEEPSEEK_CALL.indexOf('README') + 4);

interface Said {
  text: string;
  tools: { name: string; args: string }[];
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** A whole answer on `face`: its text and its calls (arguments as JSON text). */
function whole(face: FaceDriver, reply: string): Said {
  const body = JSON.parse(reply) as Json;
  if (face.face === 'chat') {
    const message = (list(body.choices)[0]?.message ?? {}) as Json;
    const tools = list(message.tool_calls).map(
      (call) => call.function as { name: string; arguments: string },
    );
    return {
      text: String(message.content ?? ''),
      tools: tools.map((fn) => ({ name: fn.name, args: fn.arguments })),
    };
  }
  const parts = face.face === 'messages' ? list(body.content) : list(body.output);
  const said: Said = { text: '', tools: [] };
  for (const part of parts) {
    if (part.type === 'text') said.text += String(part.text);
    if (part.type === 'message')
      said.text += list(part.content)
        .map((c) => String(c.text))
        .join('');
    if (part.type === 'tool_use')
      said.tools.push({ name: String(part.name), args: JSON.stringify(part.input) });
    if (part.type === 'function_call')
      said.tools.push({ name: String(part.name), args: String(part.arguments) });
  }
  return said;
}

/** A model that writes `text`, streamed in `pieces` or whole, as the request asks, ending with `stop`. */
function writes(text: string, pieces: readonly string[] = [text], before: Json[] = []) {
  return byStreaming(
    sse([roleFrame(), ...before, ...pieces.map(contentFrame), finishFrame('stop')]),
    jsonBody(completion(text)),
  );
}

/** `text` cut into pieces of `size` characters, as a stream may bring it. */
const cut = (text: string, size: number): string[] =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

async function ask(url: string, face: FaceDriver, stream: boolean, schema?: object): Promise<Said> {
  const reply = await askFace(url, face, face.body(stream, 'Read it.', ['Read'], schema));
  assert.equal(reply.status, 200, reply.text);
  if (!stream) return whole(face, reply.text);
  const read = face.read(reply.text);
  assert.equal(read.ending, 'clean');
  return { text: read.text, tools: read.tools };
}

for (const face of FACES) {
  for (const stream of [true, false]) {
    const on = `${face.face}${stream ? ' stream' : ''}`;

    test(`${on}: a call written as Hermes-style text reaches the agent as a call, from the model that wrote it`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        upstream.script('alpha/m1', writes(HERMES, cut(HERMES, 7)));
        const said = await ask(router.url, face, stream);
        assert.deepEqual(said, { text: '', tools: [{ name: 'Read', args: ARGS }] });
        // The attempt's record says what the router did to the answer.
        assert.deepEqual(
          router.lastEntry().attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}:${a.note ?? ''}`),
          [`alpha/m1:ok:${CALLS_FROM_TEXT_NOTE}`],
        );
      });
    });

    test(`${on}: Llama's, Kimi's, DeepSeek's and GLM's markup, and OpenAI's shape as bare JSON, reach the agent as calls`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        const forms = [
          `<function=Read>${ARGS}</function>`,
          `<|tool_calls_section_begin|><|tool_call_begin|>functions.Read:0<|tool_call_argument_begin|>${ARGS}<|tool_call_end|><|tool_calls_section_end|>`,
          DEEPSEEK_CALL,
          '<tool_call>Read\n<arg_key>path</arg_key>\n<arg_value>README.md</arg_value>\n</tool_call>',
          `{"type": "function", "function": {"name": "Read", "arguments": ${ARGS}}}`,
        ];
        for (const text of forms) {
          upstream.script('alpha/m1', writes(text, cut(text, 4)));
          assert.deepEqual(await ask(router.url, face, stream), {
            text: '',
            tools: [{ name: 'Read', args: ARGS }],
          });
        }
      });
    });

    test(`${on}: Qwen3-Coder's <parameter=…> form reaches the agent as a call, its values typed by the tool's schema`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        upstream.script('alpha/m1', writes(XML_CALL, cut(XML_CALL, 6)));
        assert.deepEqual(await ask(router.url, face, stream, READ_SCHEMA), {
          text: '',
          tools: [{ name: 'Read', args: '{"path":"README.md","limit":20}' }],
        });
      });
    });

    test(`${on}: call markup that cannot be read fails over unseen as invalid_tool_call`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        upstream.script('alpha/m1', writes(DEEPSEEK_CUT, cut(DEEPSEEK_CUT, 9)));
        upstream.script('beta/m2', writes(`[TOOL_CALLS]Read[ARGS]${ARGS}`));
        const said = await ask(router.url, face, stream);
        assert.deepEqual(said, { text: '', tools: [{ name: 'Read', args: ARGS }] });
        const entry = router.lastEntry();
        assert.deepEqual(
          entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`),
          ['alpha/m1:invalid_tool_call', 'beta/m2:ok'],
        );
      });
    });

    test(`${on}: a think block, then a call written as text: the think block is the text, the call a call`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        const think = '<think>I need README.md.</think>';
        const text = `${think}\n\n${HERMES}`;
        upstream.script('alpha/m1', writes(text, cut(text, 6)));
        assert.deepEqual(await ask(router.url, face, stream), {
          text: think,
          tools: [{ name: 'Read', args: ARGS }],
        });
        assert.equal(router.lastEntry().attempts.length, 1);
      });
    });

    test(`${on}: a call written on its own line after words: the words are the text, the call a call`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        const text = `I will read README.md first.\n\n${HERMES}\n`;
        upstream.script('alpha/m1', writes(text, cut(text, 5)));
        const said = await ask(router.url, face, stream);
        assert.deepEqual(
          { ...said, text: said.text.trimEnd() },
          {
            text: 'I will read README.md first.',
            tools: [{ name: 'Read', args: ARGS }],
          },
        );
        assert.deepEqual(
          router.lastEntry().attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}:${a.note ?? ''}`),
          [`alpha/m1:ok:${CALLS_FROM_TEXT_NOTE}`],
        );
      });
    });

    test(`${on}: markup shown in a fence after words is words, as the model wrote it`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        const text = `A call looks like this:\n\`\`\`\n${HERMES}\n\`\`\``;
        upstream.script('alpha/m1', writes(text, cut(text, 4)));
        assert.deepEqual(await ask(router.url, face, stream), { text, tools: [] });
        assert.equal(router.lastEntry().attempts[0]?.note, undefined);
      });
    });

    test(`${on}: words that begin like markup, and JSON that is no call, pass as the text they are`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        for (const text of [
          '<b>Bold</b> it is.',
          '[TOOL] is a word here.',
          '{"answer": 42}',
          '```python\nx = 1\n```',
        ]) {
          upstream.script('alpha/m1', writes(text, cut(text, 2)));
          assert.deepEqual(await ask(router.url, face, stream), { text, tools: [] }, text);
          assert.equal(router.lastEntry().attempts[0]?.note, undefined);
        }
        assert.equal(upstream.callsTo('beta/m2').length, 0);
      });
    });
  }
}

test('chat stream: reasoning first, then a call written as text: the reasoning goes out, then the call', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const chat = FACES[0] as FaceDriver;
    upstream.script('alpha/m1', writes(HERMES, cut(HERMES, 11), [reasoningFrame('I should read it.')]));
    const reply = await askFace(router.url, chat, chat.body(true, 'Read it.', ['Read']));
    const read = chat.read(reply.text);
    assert.deepEqual(
      [read.reasoning, read.text, read.tools],
      ['I should read it.', '', [{ name: 'Read', args: ARGS }]],
    );
    assert.doesNotMatch(reply.text, /tool_call>/);
    assert.match(reply.text, /"finish_reason":"tool_calls"/);
  });
});

test('chat stream: words, then a call written as text: the words go out at once, then the call, finished as tool_calls', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const chat = FACES[0] as FaceDriver;
    upstream.script('alpha/m1', writes(`Reading it.\n${HERMES}`, ['Reading it.\n', ...cut(HERMES, 3)]));
    const reply = await askFace(router.url, chat, chat.body(true, 'Read it.', ['Read']));
    const read = chat.read(reply.text);
    assert.deepEqual([read.text, read.tools], ['Reading it.\n', [{ name: 'Read', args: ARGS }]]);
    assert.doesNotMatch(reply.text, /tool_call>/);
    assert.match(reply.text, /"finish_reason":"tool_calls"/);
    assert.doesNotMatch(reply.text, /"finish_reason":"stop"/);
  });
});

test('chat stream: a real call after blank text is the call; the text that waited was words', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const chat = FACES[0] as FaceDriver;
    const frames = [roleFrame(), contentFrame('\n'), toolCallFrame(0, ARGS, { id: 'call_1', name: 'Read' })];
    upstream.script('alpha/m1', sse([...frames, finishFrame('tool_calls')]));
    const read = chat.read((await askFace(router.url, chat, chat.body(true, 'Read it.', ['Read']))).text);
    assert.deepEqual([read.text, read.tools], ['\n', [{ name: 'Read', args: ARGS }]]);
  });
});

test('without tools offered, text that looks like a call is text', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const chat = FACES[0] as FaceDriver;
    upstream.always('alpha/m1', writes(HERMES, cut(HERMES, 7)));
    const read = chat.read((await askFace(router.url, chat, chat.body(true, 'Show me.'))).text);
    assert.deepEqual([read.text, read.tools], [HERMES, []]);
  });
});

test('a provider that ignores stream: true and writes its call as text: the replayed stream has the call, the record says so', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', jsonBody(completion(HERMES)));
    assert.deepEqual(await ask(router.url, FACES[0] as FaceDriver, true), {
      text: '',
      tools: [{ name: 'Read', args: ARGS }],
    });
    assert.equal(router.lastEntry().attempts[0]?.note, CALLS_FROM_TEXT_NOTE);
  });
});
