import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { hasRealContent, startValidatingRelay } from './validating-relay.js';

const ANSWER = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }] });
const TOOL_CALL = JSON.stringify({
  choices: [{ message: { content: null, tool_calls: [{ id: 'c1', type: 'function' }] } }],
});

describe('hasRealContent', () => {
  it('takes an answer whose first choice has text or tool calls', () => {
    assert.equal(hasRealContent(ANSWER), true);
    assert.equal(hasRealContent(TOOL_CALL), true);
  });

  it('refuses no choices, an empty message, an error object and bytes that are no JSON', () => {
    assert.equal(hasRealContent('{"choices":[]}'), false);
    assert.equal(hasRealContent('{"choices":[{"message":{"content":""}}]}'), false);
    assert.equal(hasRealContent('{"error":{"message":"quota"}}'), false);
    assert.equal(hasRealContent('<html>'), false);
  });
});

describe('the validating relay', () => {
  /** What the upstream answers next, and the bodies it was sent. */
  let answer = ANSWER;
  const sent: string[] = [];
  const upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      sent.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  let relay: Awaited<ReturnType<typeof startValidatingRelay>>;
  before(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    relay = await startValidatingRelay(`http://127.0.0.1:${port}`, 'upstream-model');
  });
  after(async () => {
    await relay.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const post = (body: string) =>
    fetch(`${relay.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it("sends the body with the upstream's model name and answers with the upstream's bytes", async () => {
    answer = ANSWER;
    const res = await post(JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'x' }] }));
    assert.equal(res.status, 200);
    assert.equal(await res.text(), ANSWER);
    const upstreamBody = JSON.parse(sent.at(-1) ?? '') as Record<string, unknown>;
    assert.deepEqual(upstreamBody, { model: 'upstream-model', messages: [{ role: 'user', content: 'x' }] });
  });

  it('answers 502 for a 200 with nothing in it, and 400 for a body that is no JSON object', async () => {
    answer = '{"choices":[]}';
    assert.equal((await post('{"model":"fcm"}')).status, 502);
    const before = sent.length;
    assert.equal((await post('[1]')).status, 400);
    assert.equal(sent.length, before, 'a refused body never reaches the upstream');
  });
});
