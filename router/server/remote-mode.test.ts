/**
 * Listening beyond loopback: only with `allowRemote`, and then the management API and the dashboard page
 * want the per-start token on every call, reads included; the chat API and /health stay open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ErrorResponse } from '../api-types.js';
import { startRouter } from '../daemon/start-router.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest, parseReply } from '../test-support/http-client.js';
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

test('with allowRemote, reads of the management API and the dashboard page want the token', async () => {
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

    const page = await router.get('/');
    assert.equal(page.status, 401);
    assert.ok(!page.text.includes(router.token), 'the page does not hand out the token');
    assert.match(page.text, /\?token=/);
    assert.equal((await router.get('/?token=guess')).status, 401);

    const signIn = await router.get(`/?token=${router.token}`);
    assert.equal(signIn.status, 303);
    assert.equal(signIn.headers.location, '/', 'the token leaves the address bar');
    const cookie = String(signIn.headers['set-cookie']);
    assert.match(cookie, /^fcm_token=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
    const sessionCookie = cookie.split(';')[0] ?? '';
    const withCookie = await router.get('/', { cookie: sessionCookie });
    assert.equal(withCookie.status, 200);
    assert.ok(
      withCookie.text.includes(router.token),
      'the signed-in page carries the token for its API calls',
    );
    assert.equal((await router.get('/api/state', { cookie: `other=1; ${sessionCookie}` })).status, 200);
    assert.equal((await router.get('/api/state', { cookie: 'fcm_token=guess' })).status, 403);
    // Changes still want the header (the cookie alone would be a credential any same-site form could use).
    const cookieOnly = await httpRequest(`${router.url}/api/pause`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: sessionCookie },
      body: '{"paused": true}',
    });
    assert.equal(cookieOnly.status, 403);

    assert.equal((await router.get('/assets/app.js')).status, 200, 'the built files hold no secret');
    assert.equal((await router.get('/health')).status, 200);
    assert.equal((await router.chat()).status, 200, 'agents need no token');
  } finally {
    await router.close();
    await upstream.close();
  }
});

test('on loopback without allowRemote, reads stay open as before', async () => {
  const upstream = await startFakeUpstream();
  const router = await startHarness({ config: scenarioConfig(upstream, { providers: { alpha: ['m1'] } }) });
  try {
    assert.equal((await router.get('/api/state')).status, 200);
    const page = await router.get('/');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(router.token));
    // An address signed for remote mode works here too, and loses the token.
    const signIn = await router.get(`/?token=${router.token}`);
    assert.equal(signIn.status, 303);
    assert.equal(signIn.headers.location, '/');
    assert.equal((await router.get('/?token=guess')).status, 200, 'loopback serves the page anyway');
  } finally {
    await router.close();
    await upstream.close();
  }
});
