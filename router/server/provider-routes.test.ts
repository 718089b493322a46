/**
 * The Providers view's writes over the API, against a real router and fake upstream: a provider added, a
 * key added and used on a 429, a key removed and put back, probes and limits set; every change in the file,
 * every bad value refused with the config's own words, and no key ever in an answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type {
  ConfigIssue,
  EditResponse,
  ErrorResponse,
  ProvidersResponse,
  ProviderView,
} from '../api-types.js';
import type { ConfigInput } from '../config/schema.js';
import { HOLD_MS } from '../state/held-keys.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { httpRequest, parseReply, type HttpReply } from '../test-support/http-client.js';
import type { RouterHarness } from '../test-support/router-harness.js';
import { withScenario } from '../test-support/scenario.js';
import { TestClock } from '../test-support/test-clock.js';
import { json, status } from '../test-support/upstream-behaviours.js';

const ONE = { providers: { alpha: ['m1'] }, keys: { alpha: 'sk-first' } };

async function written(router: RouterHarness): Promise<ConfigInput> {
  return JSON.parse(await readFile(router.router.configPath, 'utf8')) as ConfigInput;
}

async function provider(router: RouterHarness, id: string): Promise<ProviderView | undefined> {
  const reply = await router.get('/api/providers');
  assert.ok(!reply.text.includes('sk-'), 'no key in the answer');
  return parseReply<ProvidersResponse>(reply).providers.find((p) => p.id === id);
}

function issuesOf(reply: HttpReply): ConfigIssue[] {
  return parseReply<ErrorResponse>(reply).error.issues ?? [];
}

test('a provider added with two keys and a header is routed to, pinned, with its first key', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('mine/m1', json('from mine'));
    const added = await router.api('POST', '/api/providers/add', {
      id: 'mine',
      name: 'My proxy',
      baseUrl: upstream.baseUrl('mine'),
      apiKeys: [' sk-a ', '', 'sk-b'],
      models: ['m1'],
      headers: { 'x-team': 'blue' },
    });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual((await written(router)).providers?.mine, {
      name: 'My proxy',
      baseUrl: upstream.baseUrl('mine'),
      models: ['m1'],
      headers: { 'x-team': 'blue' },
      apiKey: 'sk-a',
      apiKeys: ['sk-b'],
    });
    const view = await provider(router, 'mine');
    assert.equal(view?.custom, true);
    assert.deepEqual(
      view?.keys.map((key) => key.fingerprint),
      [keyFingerprint('sk-a'), keyFingerprint('sk-b')],
    );
    assert.equal((await router.chat({ model: 'fcm:@mine/m1' })).status, 200);
    const call = upstream.callsTo('mine/m1')[0];
    assert.equal(call?.headers.authorization, 'Bearer sk-a');
    assert.equal(call?.headers['x-team'], 'blue');
  });
});

test('a bad provider is refused at its fields in plain words, and nothing is saved', async () => {
  await withScenario(ONE, async ({ router }) => {
    const before = await readFile(router.router.configPath, 'utf8');
    const bad = await router.api('POST', '/api/providers/add', {
      id: 'mine',
      baseUrl: 'ftp://example.com',
      apiKeys: ['sk-a b'],
      models: [],
      headers: { 'bad header': 'x' },
    });
    assert.equal(bad.status, 400, bad.text);
    const issues = issuesOf(bad);
    const at = (path: string) => issues.find((issue) => issue.path === path)?.message;
    assert.equal(at('providers.mine.baseUrl'), 'must be an http(s) URL');
    assert.match(at('providers.mine.apiKey') ?? '', /printable ASCII without spaces/);
    assert.match(at('providers.mine.headers.bad header') ?? '', /not an HTTP header name/);
    assert.ok(!bad.text.includes('sk-a b'), 'the key is not echoed');
    const badId = await router.api('POST', '/api/providers/add', {
      id: 'my proxy',
      baseUrl: 'http://x/v1',
      apiKeys: [],
      models: ['m'],
    });
    assert.equal(issuesOf(badId)[0]?.path, 'providers.my proxy');
    assert.match(issuesOf(badId)[0]?.message ?? '', /provider id: letters, digits/);
    const noModels = await router.api('POST', '/api/providers/add', {
      id: 'mine',
      baseUrl: 'http://x/v1',
      apiKeys: [],
      models: [],
    });
    assert.equal(issuesOf(noModels)[0]?.message, 'list at least one model id for a custom provider');
    // A model id with a blank could never be named in a set (provider/model-id): refused at its place.
    const spaced = await router.api('POST', '/api/providers/add', {
      id: 'mine',
      baseUrl: 'ftp://example.com',
      apiKeys: [],
      models: ['m1', 'model one'],
    });
    assert.equal(spaced.status, 400, spaced.text);
    const spacedAt = (path: string) => issuesOf(spaced).find((issue) => issue.path === path)?.message;
    assert.match(spacedAt('providers.mine.models.1') ?? '', /a model id has no spaces/);
    assert.equal(spacedAt('providers.mine.models.0'), undefined);
    assert.equal(spacedAt('providers.mine.baseUrl'), 'must be an http(s) URL', 'the other problems too');
    assert.equal(await readFile(router.router.configPath, 'utf8'), before);

    const catalogue = await router.api('POST', '/api/providers/add', {
      id: 'groq',
      baseUrl: 'http://x/v1',
      apiKeys: [],
      models: ['m'],
    });
    assert.equal(catalogue.status, 409);
    assert.match(parseReply<ErrorResponse>(catalogue).error.message, /catalogue provider: add a key/);
    const again = await router.api('POST', '/api/providers/add', {
      id: 'alpha',
      baseUrl: 'http://x/v1',
      apiKeys: [],
      models: ['m'],
    });
    assert.equal(again.status, 409);
    assert.match(parseReply<ErrorResponse>(again).error.message, /a provider named "alpha" exists/);
  });
});

test('a second key added is used when the first answers 429; the same key twice is refused', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    const added = await router.api('POST', '/api/providers/keys/add', {
      provider: 'alpha',
      apiKey: 'sk-second',
    });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(JSON.parse(added.text), { ok: true, fingerprint: keyFingerprint('sk-second') });
    assert.deepEqual((await written(router)).providers?.alpha?.apiKeys, ['sk-second']);
    const twice = await router.api('POST', '/api/providers/keys/add', {
      provider: 'alpha',
      apiKey: 'sk-second ',
    });
    assert.equal(twice.status, 409);
    assert.equal(parseReply<ErrorResponse>(twice).error.code, 'key_exists');
    const unknown = await router.api('POST', '/api/providers/keys/add', { provider: 'nope', apiKey: 'sk-x' });
    assert.equal(unknown.status, 404);
    const blank = await router.api('POST', '/api/providers/keys/add', { provider: 'alpha', apiKey: '  ' });
    assert.equal(blank.status, 400);

    upstream.script('alpha/m1', status(429, { retryAfter: '600' }), json('second'));
    assert.equal((await router.chat()).status, 200);
    const auth = upstream.callsTo('alpha/m1').map((call) => call.headers.authorization);
    assert.deepEqual(auth, ['Bearer sk-first', 'Bearer sk-second']);
    const keys = (await provider(router, 'alpha'))?.keys;
    assert.deepEqual(
      keys?.map((key) => [key.fingerprint, key.state]),
      [
        [keyFingerprint('sk-first'), 'paused'],
        [keyFingerprint('sk-second'), 'usable'],
      ],
    );
  });
});

test('a removed key can be put back for a while, where it stood; later, or elsewhere, it cannot', async () => {
  const clock = new TestClock();
  const keys = { alpha: 'sk-first' };
  const providerSettings = { alpha: { apiKeys: ['sk-second', 'sk-third'] } };
  await withScenario({ ...ONE, keys, providerSettings, clock }, async ({ router, upstream }) => {
    const second = keyFingerprint('sk-second');
    const ref = { provider: 'alpha', fingerprint: second };
    const removed = await router.api('POST', '/api/providers/keys/remove', ref);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(JSON.parse(removed.text), { ok: true, undoForMs: HOLD_MS });
    assert.deepEqual((await written(router)).providers?.alpha?.apiKeys, ['sk-third']);
    const restored = await router.api('POST', '/api/providers/keys/restore', ref);
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual((await written(router)).providers?.alpha?.apiKeys, ['sk-second', 'sk-third']);
    assert.equal((await router.api('POST', '/api/providers/keys/restore', ref)).status, 410, 'once');

    await router.api('POST', '/api/providers/keys/remove', ref);
    clock.advance(HOLD_MS);
    const late = await router.api('POST', '/api/providers/keys/restore', ref);
    assert.equal(late.status, 410);
    assert.match(parseReply<ErrorResponse>(late).error.message, /paste the key again/);

    const first = { provider: 'alpha', fingerprint: keyFingerprint('sk-first') };
    await router.api('POST', '/api/providers/keys/remove', first);
    const config = parseReply<{ config: ConfigInput; revision: string }>(await router.get('/api/config'));
    const alpha = { ...config.config.providers?.alpha, baseUrl: upstream.baseUrl('moved') };
    const moved = { ...config.config, providers: { ...config.config.providers, alpha } };
    assert.equal((await router.api('PUT', '/api/config', moved)).status, 200);
    const elsewhere = await router.api('POST', '/api/providers/keys/restore', first);
    assert.equal(elsewhere.status, 409);
    assert.equal(parseReply<ErrorResponse>(elsewhere).error.code, 'provider_moved');

    const missing = await router.api('POST', '/api/providers/keys/remove', first);
    assert.equal(missing.status, 404);
    assert.match(parseReply<ErrorResponse>(missing).error.message, /from the environment is removed there/);
  });
});

test('a removed key does not go back to a provider that sends headers added or changed since', async () => {
  const providerSettings = { alpha: { apiKeys: ['sk-first', 'sk-second'], headers: { 'X-Team': 'one' } } };
  await withScenario({ ...ONE, providerSettings }, async ({ router }) => {
    const saveHeaders = async (headers: Record<string, string>): Promise<void> => {
      const config = parseReply<{ config: ConfigInput }>(await router.get('/api/config')).config;
      const alpha = { ...config.providers?.alpha, headers };
      const saved = await router.api('PUT', '/api/config', { ...config, providers: { alpha } });
      assert.equal(saved.status, 200, saved.text);
    };
    const remove = async (key: string) => {
      const ref = { provider: 'alpha', fingerprint: keyFingerprint(key) };
      assert.equal((await router.api('POST', '/api/providers/keys/remove', ref)).status, 200);
      return () => router.api('POST', '/api/providers/keys/restore', ref);
    };

    const undoFirst = await remove('sk-first');
    await saveHeaders({ 'X-Team': 'one', 'X-Forwarded-Host': 'attacker.example' });
    const added = await undoFirst();
    assert.equal(added.status, 409, added.text);
    assert.equal(parseReply<ErrorResponse>(added).error.code, 'provider_moved');
    assert.match(parseReply<ErrorResponse>(added).error.message, /other headers/);
    assert.ok(!JSON.stringify(await written(router)).includes('sk-first'), 'the key stays out');

    await router.api('POST', '/api/providers/keys/add', { provider: 'alpha', apiKey: 'sk-second' });
    const undoSecond = await remove('sk-second');
    await saveHeaders({ 'X-Team': 'two', 'X-Forwarded-Host': 'attacker.example' });
    const changed = await undoSecond();
    assert.equal(changed.status, 409, changed.text);
    assert.equal(parseReply<ErrorResponse>(changed).error.code, 'provider_moved');

    // Headers taken away carry a key nowhere new, as a save that removes them keeps it.
    await router.api('POST', '/api/providers/keys/add', { provider: 'alpha', apiKey: 'sk-second' });
    const undoAgain = await remove('sk-second');
    await saveHeaders({ 'X-Team': 'two' });
    const fewer = await undoAgain();
    assert.equal(fewer.status, 200, fewer.text);
    assert.equal((await written(router)).providers?.alpha?.apiKey, 'sk-second');
    const events = JSON.stringify(router.router.history(50));
    assert.ok(!events.includes('attacker.example') && !router.logText().includes('attacker.example'));
  });
});

test('probes and limits are set per provider, shown in its view, and bad values named', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const settings = (body: object) =>
      router.api('POST', '/api/providers/settings', { provider: 'alpha', ...body });
    const on = await settings({ probe: { enabled: true, dailyBudget: 7 }, limits: { rpd: 40, tpm: 900 } });
    assert.equal(on.status, 200, on.text);
    assert.deepEqual((await written(router)).providers?.alpha?.probe, { enabled: true, dailyBudget: 7 });
    await router.chat();
    const view = await provider(router, 'alpha');
    assert.deepEqual(view?.probe, { enabled: true, dailyBudget: 7, idleIntervalMs: null, spentToday: 0 });
    assert.deepEqual(view?.limits.override, { rpd: 40, tpm: 900 });
    const budget = view?.keys[0]?.budgets[0];
    // The same budget shape as /api/usage's: the provider and the key's fingerprint with it.
    assert.equal(budget?.provider, 'alpha');
    assert.equal(budget?.key, view?.keys[0]?.fingerprint);
    assert.equal(budget?.model, 'alpha/m1');
    assert.equal(budget?.dayRequests, 1);
    assert.equal(budget?.minuteRequests, 1);
    assert.ok((budget?.dayTokens ?? 0) > 0);
    assert.deepEqual(budget?.limits, { rpm: null, rpd: 40, tpm: 900, tpd: null });

    const bad = await settings({ probe: { enabled: true, dailyBudget: 0 }, limits: { rpm: 'many' } });
    assert.equal(bad.status, 400);
    const messages = issuesOf(bad).map((issue) => `${issue.path}: ${issue.message}`);
    assert.deepEqual(messages.sort(), [
      'providers.alpha.limits.rpm: a whole number of requests per minute, at least 1',
      'providers.alpha.probe.dailyBudget: a whole number of probes, at least 1',
    ]);
    assert.equal((await router.api('POST', '/api/models/probe', { model: 'alpha/m1' })).status, 200);
    assert.equal((await provider(router, 'alpha'))?.probe.spentToday, 1, 'a probe now counts in the budget');
    const off = await settings({ probe: null, limits: null });
    assert.equal(off.status, 200);
    const after = (await written(router)).providers?.alpha;
    assert.equal(after?.probe, undefined);
    assert.equal(after?.limits, undefined);
  });
});

/** A Providers form's save: one part of a provider's settings, sent with the revision the form was filled from. */
function saveSettings(router: RouterHarness, body: object, revision: string): Promise<HttpReply> {
  return httpRequest(`${router.url}/api/providers/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fcm-token': router.token, 'if-match': `"${revision}"` },
    body: JSON.stringify({ provider: 'alpha', ...body }),
  });
}

test('a probes or limits save based on settings the file changed since is refused, and the file kept', async () => {
  await withScenario(ONE, async ({ router }) => {
    const read = parseReply<ProvidersResponse>(await router.get('/api/providers'));
    assert.match(read.revision, /^[A-Za-z0-9:_-]+$/);
    const onDisk = (await written(router)).providers?.alpha;
    const edited = { ...(await written(router)) };
    edited.providers = {
      ...edited.providers,
      alpha: { ...onDisk, limits: { rpd: 500 }, probe: { dailyBudget: 20 } },
    };
    const text = `${JSON.stringify(edited, null, 2)}\n`;
    await writeFile(router.router.configPath, text);

    const stale = await saveSettings(router, { limits: { rpm: 10 } }, read.revision);
    assert.equal(stale.status, 409, stale.text);
    assert.equal(parseReply<ErrorResponse>(stale).error.code, 'config_changed_on_disk');
    const staleProbe = await saveSettings(
      router,
      { probe: { enabled: true, dailyBudget: 50 } },
      read.revision,
    );
    assert.equal(staleProbe.status, 409, staleProbe.text);
    assert.equal(await readFile(router.router.configPath, 'utf8'), text, 'nothing saved over the edit');

    const fresh = parseReply<ProvidersResponse>(await router.get('/api/providers'));
    assert.notEqual(fresh.revision, read.revision);
    assert.deepEqual(fresh.providers.find((p) => p.id === 'alpha')?.limits.override, { rpd: 500 });
    const saved = await saveSettings(router, { limits: { rpm: 10, rpd: 500 } }, fresh.revision);
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual((await written(router)).providers?.alpha?.limits, { rpm: 10, rpd: 500 });
    assert.deepEqual((await written(router)).providers?.alpha?.probe, { dailyBudget: 20 });
    // The answer's revision is the next save's basis, and the one /api/providers gives now.
    const next = parseReply<EditResponse>(saved).revision;
    assert.equal(parseReply<ProvidersResponse>(await router.get('/api/providers')).revision, next);
    const probe = await saveSettings(router, { probe: { enabled: true, dailyBudget: 20 } }, next);
    assert.equal(probe.status, 200, probe.text);
    assert.deepEqual((await written(router)).providers?.alpha?.probe, { enabled: true, dailyBudget: 20 });
  });
});

test('a settings save with an If-Match that is no revision is answered 400 naming the header', async () => {
  await withScenario(ONE, async ({ router }) => {
    const before = await readFile(router.router.configPath, 'utf8');
    const reply = await saveSettings(router, { limits: { rpm: 10 } }, 'a b');
    assert.equal(reply.status, 400, reply.text);
    assert.equal(parseReply<ErrorResponse>(reply).error.param, 'If-Match');
    assert.equal(await readFile(router.router.configPath, 'utf8'), before);
  });
});
