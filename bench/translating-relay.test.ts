import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chunk, DONE, names, parseSse } from '../router/faces/test-kit.js';
import { MessagesTranslation, startTranslatingRelay } from './translating-relay.js';

const frame = (content: string): string => chunk({ content });

/** The `text_delta` texts of a Messages stream, and its event names in order. */
function readEvents(stream: string): { texts: string[]; names: string[] } {
  const events = parseSse(stream);
  const texts = events.flatMap(({ data }) => {
    const delta = data.delta as { text?: unknown } | undefined;
    return data.type === 'content_block_delta' && typeof delta?.text === 'string' ? [delta.text] : [];
  });
  return { texts, names: names(events) };
}

describe('MessagesTranslation', () => {
  it('writes a line split across chunks once it is whole, and closes on [DONE]', () => {
    const translation = new MessagesTranslation();
    const whole = frame('tok ') + frame('"quoted"') + DONE;
    const cut = whole.length - 30;
    const bytes = Buffer.from(whole);
    const out =
      translation.chunk(bytes.subarray(0, cut), true) + translation.chunk(bytes.subarray(cut), false);
    const { texts, names } = readEvents(out + translation.end());
    assert.deepEqual(texts, ['tok ', '"quoted"']);
    assert.deepEqual(names, [
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('skips frames that are no JSON or carry no text, and closes a stream that ended without [DONE]', () => {
    const translation = new MessagesTranslation();
    const out = translation.chunk(
      Buffer.from(`data: {oops\n\n${frame('')}: keep-alive\n\n${frame('a')}`),
      true,
    );
    const { texts, names } = readEvents(out + translation.end());
    assert.deepEqual(texts, ['a']);
    assert.equal(names.at(-1), 'message_stop');
  });
});

describe('the translating relay', () => {
  const sent: Record<string, unknown>[] = [];
  // Each frame leaves as its own write; the last text has a character split across two of them.
  const upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      sent.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const last = Buffer.from(frame('é'));
      const cut = last.indexOf(Buffer.from('é')) + 1;
      for (const part of [frame('tok '), frame('tok '), last.subarray(0, cut), last.subarray(cut)])
        res.write(part);
      res.end(DONE);
    });
  });
  let relay: Awaited<ReturnType<typeof startTranslatingRelay>>;
  before(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    relay = await startTranslatingRelay(`http://127.0.0.1:${port}`, 'upstream-model');
  });
  after(async () => {
    await relay.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const post = (path: string, body: Record<string, unknown>) =>
    fetch(`${relay.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("answers /v1/messages as a Messages stream of the upstream's text, asking it for a stream", async () => {
    const res = await post('/v1/messages', { model: 'fcm', max_tokens: 10, messages: [], stream: true });
    assert.equal(res.status, 200);
    const { texts, names } = readEvents(await res.text());
    assert.deepEqual(texts, ['tok ', 'tok ', 'é']);
    assert.equal(names.at(-1), 'message_stop');
    assert.deepEqual(sent.at(-1), { model: 'upstream-model', max_tokens: 10, messages: [], stream: true });
  });

  it("pipes any other path through with the upstream's bytes", async () => {
    const res = await post('/v1/chat/completions', { model: 'upstream-model', stream: true });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.equal(text, `${frame('tok ')}${frame('tok ')}${frame('é')}${DONE}`);
  });
});
