/**
 * Listening beyond loopback: only with `allowRemote`, and then the management API wants the per-start token
 * on every call, reads included; the chat API, /health and the dashboard's page and files stay open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ErrorResponse } from '../api-types.js';
import { startRouter } from '../daemon/start-router.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest, parseReply, readingRequest } from '../test-support/http-client.js';
import { startHarness } from '../test-support/router-harness.js';
import { scenarioConfig } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

test('a host other than loopback is refused without allowRemote, before anything listens', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-remote-'));
  try {
    for (const host of ['0.0.0.0', '::', '192.0.2.1']) {
      await assert.rejects(
        startRouter({ host, port: 0, stateDir: dir, env: {} }),
        (error: unknown) => error instanceof Error && /allowRemote|--allow-remote/.test(error.message),
        host,
      );
    }
    // The refusal left the state folder free.
    const router = await startRouter({ port: 0, stateDir: dir, env: {} });
    await router.stop();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('with allowRemote, reads of the management API want the token; the page and its files are open and hold none', async () => {
  const upstream = await startFakeUpstream();
  const router = await startHarness({
    config: scenarioConfig(upstream, { providers: { alpha: ['m1'] } }),
    allowRemote: true,
  });
  try {
    upstream.always('alpha/m1', json('ok'));
    assert.ok(router.token.length > 20, 'the token is in daemon.json');
    await mkdir(path.join(router.dir, 'renderer', 'assets'), { recursive: true });
    await writeFile(path.join(router.dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');

    for (const pathname of ['/api/state', '/api/history', '/api/config', '/api/providers', '/api/events']) {
      const refused = await router.get(pathname);
      assert.equal(refused.status, 403, pathname);
      assert.equal(parseReply<ErrorResponse>(refused).error.code, 'forbidden_token', pathname);
      assert.match(parseReply<ErrorResponse>(refused).error.message, /daemon\.json/);
    }
    assert.equal((await router.get('/api/state', { 'x-fcm-token': router.token })).status, 200);
    assert.equal((await router.get('/api/state', { 'x-fcm-token': 'guess' })).status, 403);
    // The event stream alone takes it in its address too (an EventSource sends no headers).
    assert.equal((await router.get(`/api/state?token=${router.token}`)).status, 403);
    assert.equal((await router.get('/api/events?token=guess')).status, 403);
    const events = readingRequest(`${router.url}/api/events?token=${router.token}`);
    assert.equal((await events.response).statusCode, 200);
    await events.received('fcm-router events');
    (await events.response).destroy();

    // The page is a shell that loads its data through the API: served to anyone, without the token.
    for (const address of ['/', '/?token=guess']) {
      const page = await router.get(address);
      assert.equal(page.status, 200, address);
      assert.ok(!page.text.includes(router.token), 'the page does not hand out the token');
      assert.ok(!page.text.includes('__FCM_TOKEN__'));
    }
    assert.equal((await router.get('/assets/app.js')).status, 200, 'the built files hold no secret');
    assert.equal((await router.get('/health')).status, 200);
    assert.equal((await router.chat()).status, 200, 'agents need no token');
  } finally {
    await router.close();
    await upstream.close();
  }
});

test('an address signed with ?token= moves the token to the fragment and sets no cookie; a cookie grants nothing', async () => {
  const upstream = await startFakeUpstream();
  const router = await startHarness({
    config: scenarioConfig(upstream, { providers: { alpha: ['m1'] } }),
    allowRemote: true,
  });
  try {
    const signIn = await router.get(`/?token=${router.token}`);
    assert.equal(signIn.status, 303);
    // A fragment never leaves the browser: no other server on this host can be handed it.
    assert.equal(signIn.headers.location, `/#token=${router.token}`);
    assert.equal(signIn.headers['set-cookie'], undefined, 'no cookie carries the token');

    // A cookie is sent to every port of the host, so one holding the right token counts for nothing.
    const cookie = { cookie: `fcm_token=${router.token}` };
    for (const pathname of ['/api/state', '/api/events', '/metrics'])
      assert.equal((await router.get(pathname, cookie)).status, 403, pathname);
    const page = await router.get('/', cookie);
    assert.ok(!page.text.includes(router.token), 'nor does it get the token into the page');
    const change = await httpRequest(`${router.url}/api/pause`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...cookie },
      body: '{"paused": true}',
    });
    assert.equal(change.status, 403);
  } finally {
    await router.close();
    await upstream.close();
  }
});

test('on loopback without allowRemote, reads stay open and the page carries the token', async () => {
  const upstream = await startFakeUpstream();
  const router = await startHarness({ config: scenarioConfig(upstream, { providers: { alpha: ['m1'] } }) });
  try {
    assert.equal((await router.get('/api/state')).status, 200);
    const page = await router.get('/');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(router.token));
    // An address signed for remote mode works here too, and hands the token over in the fragment.
    const signIn = await router.get(`/?token=${router.token}`);
    assert.equal(signIn.status, 303);
    assert.equal(signIn.headers.location, `/#token=${router.token}`);
    assert.equal(signIn.headers['set-cookie'], undefined);
    assert.equal((await router.get('/?token=guess')).status, 200, 'loopback serves the page anyway');
  } finally {
    await router.close();
    await upstream.close();
  }
});
