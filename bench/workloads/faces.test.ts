import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { translateMessagesRequest, translateResponsesRequest } from '../../router/faces/index.js';
import { faceStream, timedFaceStream } from './faces.js';

describe('faceStream', () => {
  it('asks each translating face for a stream its translation accepts', () => {
    const messages = faceStream('messages', 'fcm:bench');
    assert.equal(messages.path, '/v1/messages');
    const translated = translateMessagesRequest(JSON.parse(messages.body));
    assert.ok(translated.ok && translated.stream && translated.model === 'fcm:bench');
    const responses = faceStream('responses', 'fcm:bench');
    assert.equal(responses.path, '/v1/responses');
    const read = translateResponsesRequest(JSON.parse(responses.body));
    assert.ok(read.ok && read.stream && read.model === 'fcm:bench');
  });
});

describe('timedFaceStream', () => {
  // Serves the path's script: pieces written apart, so the client reads them as separate chunks.
  const scripts: Record<string, string[]> = {
    '/complete': [
      'event: response.output_text.delta\ndata: {"delta":"x"}\n\n',
      'data: {"type":"response.comp',
      'leted","response":{"output":[]}}\n\n',
    ],
    '/failed': ['event: response.failed\ndata: {"type":"response.failed","response":{}}\n\n'],
  };
  let server: http.Server;
  let pool: Pool;
  before(async () => {
    server = http.createServer((req, res) => {
      void (async () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const piece of scripts[req.url ?? ''] ?? []) {
          res.write(piece);
          await sleep(20);
        }
        res.end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  after(async () => {
    await pool.close();
    await new Promise((resolve) => server.close(resolve));
  });
  const end = Buffer.from('"type":"response.completed"');

  it('counts a stream whose end event came, even split across chunks', async () => {
    const reply = await timedFaceStream(pool, { path: '/complete', body: '{}', end });
    assert.equal(reply.ok, true);
    assert.ok(reply.ttfbMs > 0 && reply.totalMs >= reply.ttfbMs);
  });

  it('does not count a stream that ended without it', async () => {
    const reply = await timedFaceStream(pool, { path: '/failed', body: '{}', end });
    assert.equal(reply.ok, false);
    assert.ok(reply.bytes > 0);
  });
});
