/** A refusal's words reach the client with nothing of what the attempt sent the provider as a secret. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Behaviour } from '../test-support/upstream-behaviours.js';
import { withScenario } from '../test-support/scenario.js';

// A key with slashes, as some providers issue them (`bce-v3/ALTAK-…/…`).
const KEY = 'bce-v3/ALTAK-CANARY/0a1b2c3d';
const HEADER_KEY = 'AIza-CANARY-HEADER-KEY-9d2e';
/** The bytes of a refusal body the router reads. */
const SNIPPET_BYTES = 2048;

/** A refusal from a JSON encoder that escapes `/` as `\/`: the body quotes the key, not byte for byte. */
const escapedSlashes: Behaviour = (res, call) => {
  res.writeHead(400, { 'content-type': 'application/json' });
  const message = `invalid parameter for key ${call.headers.authorization ?? ''}`;
  res.end(JSON.stringify({ error: { message } }).replaceAll('/', '\\/'));
};

/** A plain-text refusal whose quoted key straddles the end of the bytes the router reads. */
const keyAtTheSnippetEnd: Behaviour = (res, call) => {
  res.writeHead(400, { 'content-type': 'text/plain' });
  const head = 'bad request\nkey: Bearer ';
  // Blanks fold to one in the words: the key's first 24 characters end them.
  const lead = `bad request\n${' '.repeat(SNIPPET_BYTES - head.length - 24)}`;
  res.end(`${lead}key: ${call.headers.authorization ?? ''} refused`);
};

/** A refusal that quotes the key the provider's own header carried. */
const headerKeyQuoted: Behaviour = (res, call) => {
  res.writeHead(400, { 'content-type': 'application/json' });
  const message = `API key ${String(call.headers['x-goog-api-key'])} may not use this model`;
  res.end(JSON.stringify({ error: { message } }));
};

test('a key the refusal spells with escaped slashes is blotted out of the words the client gets', async () => {
  await withScenario({ providers: { alpha: ['m1'] }, keys: { alpha: KEY } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', escapedSlashes);
    const reply = await router.chat({ model: 'fcm:@alpha/m1' });
    assert.equal(reply.status, 400);
    assert.ok(reply.text.includes('the last said: invalid parameter for key Bearer [key]'), reply.text);
    assert.ok(!reply.text.includes('ALTAK-CANARY'), reply.text);
  });
});

test('a key cut by the end of the body read is blotted out of the words the client gets', async () => {
  await withScenario({ providers: { alpha: ['m1'] }, keys: { alpha: KEY } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', keyAtTheSnippetEnd);
    const reply = await router.chat({ model: 'fcm:@alpha/m1' });
    assert.equal(reply.status, 400);
    assert.ok(reply.text.includes('the last said: bad request key: Bearer [key]'), reply.text);
    assert.ok(!reply.text.includes('ALTAK-CANARY'), reply.text);
  });
});

test("a key sent in the provider's own header is blotted out of the words the client gets", async () => {
  const options = {
    providers: { alpha: ['m1'] },
    providerSettings: { alpha: { headers: { 'x-goog-api-key': HEADER_KEY } } },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', headerKeyQuoted);
    const reply = await router.chat({ model: 'fcm:@alpha/m1' });
    assert.equal(reply.status, 400);
    assert.equal(upstream.calls[0]?.headers['x-goog-api-key'], HEADER_KEY);
    assert.ok(reply.text.includes('the last said: API key [key] may not use this model'), reply.text);
    assert.ok(!reply.text.includes(HEADER_KEY), reply.text);
  });
});
