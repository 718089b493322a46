import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatEncoder } from '../../faces/chat-face.js';
import type { GatedCompletion } from '../../gate/response-gate.js';
import { startEngineHarness, type EngineHarness } from '../../test-support/engine-harness.js';
import { startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.js';
import { httpRequest } from '../../test-support/http-client.js';
import { fakeProviders } from '../../test-support/scenario.js';
import { json, sseContent } from '../../test-support/upstream-behaviours.js';

/** A secret the fault's message carries, as a prompt quoted in an error message would be. */
const PROMPT = 'PROMPT-TEXT-7f3a';

/** The chat encoder with one method that throws. */
class ThrowingEncoder extends ChatEncoder {
  constructor(private readonly where: 'json' | 'streamBytes') {
    super();
  }
  override json(completion: GatedCompletion): Buffer | string {
    if (this.where === 'json') throw new TypeError(`cannot encode ${PROMPT}`);
    return super.json(completion);
  }
  override streamBytes(lines: Uint8Array): Uint8Array {
    if (this.where === 'streamBytes') throw new TypeError(`cannot encode ${PROMPT}`);
    return super.streamBytes(lines);
  }
}

async function withEngine(
  run: (engine: EngineHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  const engine = await startEngineHarness(
    {
      providers: fakeProviders(upstream, { alpha: ['m1'] }),
      sets: { main: ['alpha/m1'] },
      activeSet: 'main',
    },
    () => new ChatEncoder(),
  );
  try {
    await run(engine, upstream);
  } finally {
    await engine.close();
    await upstream.close();
  }
}

const chat = (engine: EngineHarness, stream = false) =>
  httpRequest(engine.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'fcm', stream, messages: [{ role: 'user', content: PROMPT }] }),
  });

test('an encoder that throws before any byte: 500 internal_error, no model blamed, the engine keeps serving', async () => {
  await withEngine(async (engine, upstream) => {
    upstream.always('alpha/m1', json('fine'));
    engine.useEncoder(() => new ThrowingEncoder('json'));
    const failed = await chat(engine);
    assert.equal(failed.status, 500);
    assert.equal((JSON.parse(failed.text) as { error: { code: string } }).error.code, 'internal_error');
    assert.match(
      failed.headers['x-fcm-v2-decision'] as string,
      /^none!internal_error\|alpha\/m1:internal_error\|/,
    );

    const breaker = engine.breakers.get('alpha/m1');
    assert.equal(breaker.state, 'CLOSED');
    assert.equal(breaker.consecutiveFailures, 0);
    assert.equal(engine.modelStats.get('alpha/m1').attempts, 0, 'no stats either way');

    const logged = engine.logger.lines.filter((line) => line.startsWith('error'));
    assert.equal(logged.length, 1);
    assert.match(logged[0] ?? '', /local fault .* TypeError \| at /);
    assert.ok(
      !engine.logger.lines.join('\n').includes(PROMPT),
      'the message (which may quote the prompt) is not logged',
    );

    engine.useEncoder(() => new ChatEncoder());
    const next = await chat(engine);
    assert.equal(next.status, 200);
    assert.match(next.text, /fine/);
  });
});

test('an encoder that throws mid-stream ends the stream as partial and blames nobody', async () => {
  await withEngine(async (engine, upstream) => {
    upstream.always('alpha/m1', sseContent(['one ', 'two']));
    engine.useEncoder(() => new ThrowingEncoder('streamBytes'));
    const reply = await chat(engine, true);
    assert.equal(reply.status, 200);
    assert.match(reply.text, /"code":"internal_error"/);
    const breaker = engine.breakers.get('alpha/m1');
    assert.equal(breaker.consecutiveFailures, 0);
    assert.equal(breaker.state, 'CLOSED');
  });
});
