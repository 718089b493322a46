import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { ErrorResponse } from '../api-types.js';
import { httpRequest, openRequest, parseReply, type OpenReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';
import { MAX_CLIENTS } from './events-route.js';

const ONE = { providers: { alpha: ['m1'] } };

/** What a browser sends for an `<img src="http://hN.localhost:PORT/api/events">` on another site's page. */
function imageRequestHeaders(url: string, n: number): Record<string, string> {
  return {
    host: `h${n}.localhost:${new URL(url).port}`,
    'sec-fetch-site': 'cross-site',
    'sec-fetch-mode': 'no-cors',
    'sec-fetch-dest': 'image',
  };
}

/** Resolves when the response ends (the server closed the stream). */
function ended(res: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    res.on('end', resolve);
    res.on('close', resolve);
    res.resume();
  });
}

test("another site's page gets none of the dashboard's data: its requests are refused before any route", async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    for (const pathname of ['/api/events', '/api/state', '/api/config', '/metrics']) {
      for (const [n, site] of ['cross-site', 'same-site'].entries()) {
        const headers = { ...imageRequestHeaders(router.url, n), 'sec-fetch-site': site };
        const reply = await httpRequest(`${router.url}${pathname}`, { headers });
        assert.equal(reply.status, 403, `${site} ${pathname}: ${reply.text}`);
        const body = parseReply<ErrorResponse>(reply);
        assert.equal(body.error.code, 'forbidden_fetch_site');
        assert.match(body.error.message, /Sec-Fetch-Site/);
      }
    }
    // The dashboard's own calls, an address typed in, and clients without fetch metadata still pass.
    for (const site of ['same-origin', 'none']) {
      const reply = await router.get('/api/state', { 'sec-fetch-site': site, 'sec-fetch-mode': 'cors' });
      assert.equal(reply.status, 200, `${site}: ${reply.text}`);
    }
    assert.equal((await router.get('/api/state')).status, 200);
    assert.equal((await router.get('/metrics')).status, 200);
    // Agents send none; the chat API is not judged by it (editor webviews' fetches are cross-site).
    const chat = await router.chat(
      {},
      { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' } },
    );
    assert.equal(chat.status, 200, chat.text);
  });
});

test('a full set of event listeners lets the newest in and ends the oldest rather than refusing the newest', async () => {
  await withScenario(ONE, async ({ router }) => {
    const streams: OpenReply[] = [];
    try {
      for (let n = 0; n < MAX_CLIENTS; n++) {
        streams.push(openRequest(`${router.url}/api/events`));
        assert.equal((await streams[n]!.response).statusCode, 200);
      }
      const oldest = ended(await streams[0]!.response);
      const dashboard = openRequest(`${router.url}/api/events`, {
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      streams.push(dashboard);
      assert.equal((await dashboard.response).statusCode, 200);
      await oldest;
    } finally {
      for (const stream of streams) stream.request.destroy();
    }
  });
});

const WEBVIEW = 'vscode-webview://1a2b3c4d5e6f';

/** What a browser sends with a webview's cross-origin request. */
const fromWebview = { origin: WEBVIEW, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' };

test('an editor webview fetches the chat API as a browser does: the preflight, then the POST it reads', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    for (const [pathname, sent] of [
      ['/v1/chat/completions', 'content-type,authorization,x-stainless-os,x-stainless-retry-count'],
      ['/v1/messages', 'anthropic-version,content-type,x-api-key,x-claude-code-session-id'],
    ] as const) {
      const preflight = await httpRequest(`${router.url}${pathname}`, {
        method: 'OPTIONS',
        headers: {
          ...fromWebview,
          'access-control-request-method': 'POST',
          'access-control-request-headers': sent,
        },
      });
      assert.equal(preflight.status, 204, preflight.text);
      assert.equal(preflight.headers['access-control-allow-origin'], WEBVIEW);
      assert.match(String(preflight.headers['access-control-allow-methods']), /\bPOST\b/);
      const allowed = String(preflight.headers['access-control-allow-headers']).split(/,\s*/);
      for (const name of sent.split(',')) assert.ok(allowed.includes(name), `${pathname} allows ${name}`);
    }
    const whole = await router.chat({}, { headers: fromWebview });
    assert.equal(whole.status, 200, whole.text);
    assert.equal(whole.headers['access-control-allow-origin'], WEBVIEW);
    const streamed = await router.chat({ stream: true }, { headers: fromWebview });
    assert.equal(streamed.status, 200, streamed.text);
    assert.match(String(streamed.headers['content-type']), /text\/event-stream/);
    assert.equal(streamed.headers['access-control-allow-origin'], WEBVIEW);
    const refused = await router.chat({ model: 'fcm:no-such-set' }, { headers: fromWebview });
    assert.equal(refused.status, 404);
    assert.equal(refused.headers['access-control-allow-origin'], WEBVIEW, 'its errors are readable too');

    // Web pages get neither, and webviews nothing beyond the chat API.
    const page = await httpRequest(`${router.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { ...fromWebview, origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(page.status, 403);
    assert.equal(page.headers['access-control-allow-origin'], undefined);
    const api = await httpRequest(`${router.url}/api/state`, {
      method: 'OPTIONS',
      headers: { ...fromWebview, 'access-control-request-method': 'GET' },
    });
    assert.equal(api.status, 403);
    assert.equal(api.headers['access-control-allow-origin'], undefined);
    const plain = await router.chat();
    assert.equal(plain.headers['access-control-allow-origin'], undefined, 'agents get no CORS headers');
  });
});
