import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ioTurns } from '../test-support/deferred.js';
import { DEMO_PROVIDERS, startDemoUpstream } from './demo-upstream.js';

const SECRET_PROMPT = 'PROMPT-MARKER-7f3a do not echo me';

type Upstream = Awaited<ReturnType<typeof startDemoUpstream>>;

async function withUpstream(run: (upstream: Upstream) => Promise<void>): Promise<void> {
  const upstream = await startDemoUpstream();
  try {
    await run(upstream);
  } finally {
    await upstream.close();
  }
}

function chat(upstream: Upstream, provider: string, model: string, stream: boolean, signal?: AbortSignal) {
  return fetch(`${upstream.url}/${provider}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer demo-key' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: SECRET_PROMPT }] }),
    ...(signal ? { signal } : {}),
  });
}

/** The `data:` payloads of an SSE body, `[DONE]` included as the string. */
function dataFrames(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((frame) => frame.trim())
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
}

interface Chunk {
  choices: { delta: { content?: string; reasoning_content?: string } }[];
  usage?: unknown;
  error?: unknown;
}

test('lists each provider’s models and 404s an unknown provider', async () => {
  await withUpstream(async (upstream) => {
    for (const [provider, models] of Object.entries(DEMO_PROVIDERS)) {
      const res = await fetch(`${upstream.url}/${provider}/v1/models`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { object: string; data: { id: string }[] };
      assert.equal(body.object, 'list');
      assert.deepEqual(
        body.data.map((model) => model.id),
        Object.keys(models),
      );
    }
    assert.equal((await fetch(`${upstream.url}/nobody/v1/models`)).status, 404);
  });
});

test('demo-flaky/empty-200: 200 with no choices, and a stream that says nothing', async () => {
  await withUpstream(async (upstream) => {
    const res = await chat(upstream, 'demo-flaky', 'empty-200', false);
    assert.equal(res.status, 200);
    assert.deepEqual(((await res.json()) as { choices: unknown[] }).choices, []);

    const streamed = await chat(upstream, 'demo-flaky', 'empty-200', true);
    assert.equal(streamed.status, 200);
    const frames = dataFrames(await streamed.text());
    assert.equal(frames.at(-1), '[DONE]');
    const chunks = frames.slice(0, -1) as Chunk[];
    assert.ok(chunks.length > 0);
    for (const chunk of chunks) for (const choice of chunk.choices) assert.ok(!choice.delta.content);
  });
});

test('demo-flaky/sse-error: an error as the first frame, or a 200 with an error object', async () => {
  await withUpstream(async (upstream) => {
    const streamed = await chat(upstream, 'demo-flaky', 'sse-error', true);
    assert.equal(streamed.status, 200);
    assert.match(streamed.headers.get('content-type') ?? '', /text\/event-stream/);
    const first = dataFrames(await streamed.text())[0] as Chunk;
    assert.ok(first.error);

    const res = await chat(upstream, 'demo-flaky', 'sse-error', false);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { error?: { message: string }; choices?: unknown };
    assert.ok(body.error?.message);
    assert.equal(body.choices, undefined);
  });
});

test('demo-limited/rate-limited: 429 with Retry-After 30 in both modes', async () => {
  await withUpstream(async (upstream) => {
    for (const stream of [false, true]) {
      const res = await chat(upstream, 'demo-limited', 'rate-limited', stream);
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '30');
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'rate_limit_exceeded');
    }
  });
});

test('demo-fast/coder: a real answer, streamed in delayed chunks ending with usage and [DONE]', async () => {
  await withUpstream(async (upstream) => {
    const res = await chat(upstream, 'demo-fast', 'coder', false);
    const body = (await res.json()) as { choices: { message: { content: string } }[]; usage: unknown };
    assert.match(body.choices[0]?.message.content ?? '', /function clamp/);
    assert.ok(body.usage);

    const started = Date.now();
    const streamed = await chat(upstream, 'demo-fast', 'coder', true);
    const frames = dataFrames(await streamed.text());
    assert.ok(Date.now() - started >= 50, 'chunks are spaced out');
    assert.equal(frames.at(-1), '[DONE]');
    const usage = frames.at(-2) as Chunk;
    assert.deepEqual(usage.choices, []);
    assert.ok(usage.usage);
    const chunks = frames.slice(0, -2) as Chunk[];
    const contentChunks = chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    assert.ok(contentChunks.length >= 3);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, body.choices[0]?.message.content);
  });
});

test('demo-fast/reasoner: reasoning_content comes before the content', async () => {
  await withUpstream(async (upstream) => {
    const frames = dataFrames(await (await chat(upstream, 'demo-fast', 'reasoner', true)).text());
    const kinds = (frames.slice(0, -2) as Chunk[])
      .map((chunk) => chunk.choices[0]?.delta)
      .map((delta) => (delta?.reasoning_content ? 'r' : delta?.content ? 'c' : ''))
      .filter((kind) => kind !== '')
      .join('');
    assert.match(kinds, /^r+c+$/);

    const res = await chat(upstream, 'demo-fast', 'reasoner', false);
    const message = ((await res.json()) as { choices: { message: Record<string, string> }[] }).choices[0]
      ?.message;
    assert.ok(message?.['reasoning_content']);
    assert.ok(message?.['content']);
  });
});

test('demo-sometimes/coin: every third request fails with 503', async () => {
  await withUpstream(async (upstream) => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await chat(upstream, 'demo-sometimes', 'coin', i % 2 === 0);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 503, 200, 200, 503]);
  });
});

test('demo-slow/hang never answers, and close() ends it without waiting', async () => {
  const upstream = await startDemoUpstream();
  try {
    let answered = false;
    const cut = new AbortController();
    const asked = chat(upstream, 'demo-slow', 'hang', false, cut.signal).then(() => (answered = true));
    // Its request is in; the event loop goes round many times and no answer comes.
    await ioTurns(50);
    assert.equal(answered, false);
    cut.abort();
    await assert.rejects(asked, { name: 'AbortError' });
    const pending = chat(upstream, 'demo-slow', 'hang', true);
    await ioTurns();
    // A close that waited for the hanging request would never resolve.
    await upstream.close();
    await assert.rejects(pending);
  } finally {
    await upstream.close();
  }
});

test('never echoes the prompt; unknown models and bad bodies get OpenAI-shaped errors', async () => {
  await withUpstream(async (upstream) => {
    for (const [provider, models] of Object.entries(DEMO_PROVIDERS)) {
      for (const model of Object.keys(models)) {
        if (model === 'hang') continue;
        for (const stream of [false, true]) {
          const text = await (await chat(upstream, provider, model, stream)).text();
          assert.ok(!text.includes('PROMPT-MARKER'), `${provider}/${model}`);
        }
      }
    }
    const unknown = await chat(upstream, 'demo-fast', 'nope', false);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'model_not_found');
    const bad = await fetch(`${upstream.url}/demo-fast/v1/chat/completions`, {
      method: 'POST',
      body: 'not json',
    });
    assert.equal(bad.status, 400);
    await bad.arrayBuffer();
  });
});

test('demo-sometimes/cut-short: every other stream closes half-way, with neither a finish reason nor [DONE]', async () => {
  await withUpstream(async (upstream) => {
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const frames = dataFrames(await (await chat(upstream, 'demo-sometimes', 'cut-short', true)).text());
      const ended = frames.includes('[DONE]');
      texts.push(`${ended ? 'whole' : 'cut'}:${(frames.filter((f) => f !== '[DONE]') as Chunk[]).length}`);
    }
    assert.match(texts[0] ?? '', /^cut:/);
    assert.match(texts[1] ?? '', /^whole:/);
    const whole = await chat(upstream, 'demo-sometimes', 'cut-short', false);
    assert.equal(whole.status, 200, 'a whole answer is never cut');
  });
});

test('asked to go on with the canned answer, a model gives the rest of it, restating the cut word', async () => {
  await withUpstream(async (upstream) => {
    const full =
      (
        (await (await chat(upstream, 'demo-fast', 'coder', false)).json()) as {
          choices: { message: { content: string } }[];
        }
      ).choices[0]?.message.content ?? '';
    const sofar = full.slice(0, 30);
    const res = await fetch(`${upstream.url}/demo-fast/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'coder',
        stream: true,
        messages: [
          { role: 'user', content: SECRET_PROMPT },
          { role: 'assistant', content: sofar },
          { role: 'user', content: 'Go on.' },
        ],
      }),
    });
    const text = (dataFrames(await res.text()).slice(0, -2) as Chunk[])
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .join('');
    const restart = sofar.lastIndexOf(' ') + 1;
    assert.equal(text, full.slice(restart), 'from the start of the cut word to the end');
    assert.ok(!text.includes(SECRET_PROMPT));
  });
});
