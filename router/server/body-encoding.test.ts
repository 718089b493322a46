/**
 * A compressed request body is inflated before it is read: gzip, deflate (zlib-wrapped or raw) and br on
 * every face, zstd where Node has it; a coding the router cannot undo, a body that unpacks past the limit
 * or one that is not what its coding says gets a refusal naming it, and no model is tried.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import type { ErrorResponse } from '../api-types.js';
import { httpRequest, parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';
import { decodeBody } from './body-encoding.js';

const ONE = { providers: { alpha: ['m1'] } };
const CHAT = JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] });
const MESSAGES = JSON.stringify({
  model: 'fcm',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
});

function post(url: string, body: Buffer, encoding: string) {
  const headers = { 'content-type': 'application/json', 'content-encoding': encoding };
  return httpRequest(url, { method: 'POST', headers, body });
}

test('gzip, deflate and br bodies are served on chat completions and Messages alike', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('inflated fine'));
    const codings: Array<[string, (text: string) => Buffer]> = [
      ['gzip', (text) => zlib.gzipSync(text)],
      ['x-gzip', (text) => zlib.gzipSync(text)],
      ['deflate', (text) => zlib.deflateSync(text)],
      ['deflate', (text) => zlib.deflateRawSync(text)],
      ['br', (text) => zlib.brotliCompressSync(text)],
      ['gzip, br', (text) => zlib.brotliCompressSync(zlib.gzipSync(text))],
      ['identity', (text) => Buffer.from(text)],
    ];
    for (const [encoding, pack] of codings) {
      const chat = await post(`${router.url}/v1/chat/completions`, pack(CHAT), encoding);
      assert.equal(chat.status, 200, `chat, ${encoding}: ${chat.text}`);
      assert.match(chat.text, /inflated fine/);
      const messages = await post(`${router.url}/v1/messages`, pack(MESSAGES), encoding);
      assert.equal(messages.status, 200, `messages, ${encoding}: ${messages.text}`);
      assert.match(messages.text, /inflated fine/);
    }
    const sent = upstream.callsTo('alpha/m1');
    assert.equal(sent.length, 14);
    assert.ok(
      sent.every((call) => call.headers['content-encoding'] === undefined),
      'sent on uncompressed',
    );
  });
});

test('an unknown coding is a 415 naming it; a bomb a 413; a broken stream a 400; no model is tried', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('unused'));
    const url = `${router.url}/v1/chat/completions`;
    const unknown = await post(url, Buffer.from(CHAT), 'compress');
    assert.equal(unknown.status, 415);
    assert.match(parseReply<ErrorResponse>(unknown).error.message, /content-encoding "compress" is not one/);

    const bomb = zlib.gzipSync(Buffer.alloc(11 * 1024 * 1024, 0x20));
    assert.ok(bomb.length < 100_000, 'small on the wire');
    const large = await post(url, bomb, 'gzip');
    assert.equal(large.status, 413);
    assert.match(parseReply<ErrorResponse>(large).error.message, /over 10 MiB once inflated/);

    const broken = await post(url, Buffer.from(CHAT), 'gzip');
    assert.equal(broken.status, 400);
    assert.match(parseReply<ErrorResponse>(broken).error.message, /not valid gzip/);
    assert.equal(upstream.calls.length, 0);
  });
});

test('zstd is inflated where this Node can, and otherwise refused by name', async () => {
  const zstd = (zlib as { zstdCompressSync?: (input: Buffer) => Buffer }).zstdCompressSync;
  const packed = zstd ? zstd(Buffer.from(CHAT)) : Buffer.from(CHAT);
  const decoded = await decodeBody(packed, 'zstd', 1024);
  if (zstd) assert.deepEqual(decoded, { ok: true, body: Buffer.from(CHAT) });
  else assert.equal(decoded.ok === false && decoded.status, 415);
});
