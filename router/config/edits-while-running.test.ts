/**
 * `config.json` edited while the router runs: a valid edit is applied live and survives the dashboard's
 * next save; an invalid one leaves the router on its last good config, named in the API, an event and
 * the log; no save replaces what changed on disk since it was read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigFileEvent, ConfigResponse, ErrorResponse } from '../api-types.js';
import { deferred, ioTurns, within } from '../test-support/deferred.js';
import { httpRequest, parseReply, type HttpReply } from '../test-support/http-client.js';
import type { RouterHarness } from '../test-support/router-harness.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';
import { CONFIG_WATCH_DEBOUNCE_MS } from './config-watch.js';
import type { ConfigInput } from './schema.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, sets: { main: ['alpha/m1'], spare: ['beta/m2'] } };

/** The next `config-file` event; subscribe before the edit so it cannot be missed. */
function nextFileEvent(router: RouterHarness): Promise<ConfigFileEvent> {
  const seen = deferred<ConfigFileEvent>();
  const off = router.router.on('config-file', (event) => {
    off();
    seen.resolve(event);
  });
  return within(seen.promise, 'a config-file event');
}

/**
 * Lets the watcher read the events of the edit just made (the kernel queued them as the edit was made),
 * then lets the folder's settle time pass on the router's clock.
 */
async function settle(router: RouterHarness): Promise<void> {
  await ioTurns();
  router.clock.advance(CONFIG_WATCH_DEBOUNCE_MS);
}

async function readConfig(router: RouterHarness): Promise<ConfigInput> {
  return JSON.parse(await readFile(router.router.configPath, 'utf8')) as ConfigInput;
}

/** Replaces the file as editors and atomic writers do: a temp file renamed over it. */
async function editByRename(router: RouterHarness, text: string): Promise<void> {
  const temp = path.join(router.dir, 'config.json.edit');
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, router.router.configPath);
}

/** A dashboard save: the whole config it holds, sent with the revision it read. */
function save(router: RouterHarness, config: ConfigInput, revision: string): Promise<HttpReply> {
  return httpRequest(`${router.url}/api/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-fcm-token': router.token, 'if-match': `"${revision}"` },
    body: JSON.stringify(config),
  });
}

async function shown(router: RouterHarness): Promise<ConfigResponse> {
  return parseReply<ConfigResponse>(await router.get('/api/config'));
}

test('a hand edit is applied live, and the dashboard save after it keeps every hand-added field', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a')).always('beta/m2', json('b'));
    const before = await readConfig(router);
    const edited: ConfigInput = {
      ...before,
      sets: { ...before.sets, handmade: ['beta/m2'] },
      providers: {
        ...before.providers,
        beta: { ...before.providers?.beta, probe: { dailyBudget: 7 } },
      },
      router: { ...before.router, ranking: { order: { default: 'fastest', main: 'fastest' } } },
    };
    const applied = nextFileEvent(router);
    await editByRename(router, JSON.stringify(edited, null, 2));
    await settle(router);
    const event = await applied;
    assert.equal(event.status, 'applied');
    assert.equal(event.path, router.router.configPath);
    assert.ok(event.status === 'applied' && event.changed.includes('sets.handmade'), JSON.stringify(event));
    assert.match(router.logText(), /config\.json was changed on disk: applied \(.*sets\.handmade/);
    const viaHand = await router.chat({ model: 'fcm:handmade' });
    assert.equal(viaHand.headers['x-fcm-v2-model'], 'beta/m2', 'the hand-added set routes at once');

    const current = await shown(router);
    const withChange: ConfigInput = {
      ...current.config,
      router: { ...current.config.router, failover: { ...current.config.router?.failover, maxAttempts: 2 } },
    };
    const put = await save(router, withChange, current.revision);
    assert.equal(put.status, 200, put.text);
    const expected: ConfigInput = {
      ...edited,
      router: { ...edited.router, failover: { ...edited.router?.failover, maxAttempts: 2 } },
    };
    assert.deepEqual(await readConfig(router), expected, 'what was read plus the change, nothing else');
  });
});

test('a save based on a revision older than an edit on disk gets 409 and the edit stays; a partial change is made to the edit', async () => {
  await withScenario(TWO, async ({ router }) => {
    const stale = await shown(router);
    const edited = { ...(await readConfig(router)), sets: { ...TWO.sets, handmade: ['alpha/m1'] } };
    const text = `${JSON.stringify(edited, null, 2)}\n`;
    // Whether or not the watcher has read the edit yet, the save is checked against the file.
    await writeFile(router.router.configPath, text);
    const put = await save(router, { ...stale.config, activeSet: 'spare' }, stale.revision);
    assert.equal(put.status, 409, put.text);
    const error = parseReply<ErrorResponse>(put).error;
    assert.equal(error.code, 'config_changed_on_disk');
    assert.match(
      error.message,
      /config\.json was changed on disk since this config was read; nothing was saved/,
    );
    assert.equal(await readFile(router.router.configPath, 'utf8'), text, 'the edit is not replaced');

    const active = await router.api('POST', '/api/sets/active', { set: 'handmade' });
    assert.equal(active.status, 200, active.text);
    assert.deepEqual(await readConfig(router), { ...edited, activeSet: 'handmade' });
    const fresh = await shown(router);
    assert.notEqual(fresh.revision, stale.revision);
    const again = await save(router, { ...fresh.config, activeSet: 'main' }, fresh.revision);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual((await readConfig(router)).sets, edited.sets, 'the hand-added set survives');
  });
});

test('an invalid hand edit keeps the router on its last good config, names the error and the file, and blocks saves until fixed', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a')).always('beta/m2', json('b'));
    const good = await readConfig(router);
    const canary = 'sk-hand-canary-93b1';
    const broken = `{"providers": {"alpha": {"apiKey": ${canary}}}}\n`;
    const invalid = nextFileEvent(router);
    await writeFile(router.router.configPath, broken);
    await settle(router);
    const event = await invalid;
    assert.equal(event.status, 'invalid');
    assert.ok(event.status === 'invalid');
    assert.equal(event.issues[0]?.path, '(root)');
    assert.match(event.issues[0]?.message ?? '', /^invalid JSON/);

    const api = await shown(router);
    assert.deepEqual(api.fileProblem, { path: router.router.configPath, issues: event.issues });
    assert.deepEqual(api.config.sets, good.sets, 'still the last good config');
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1', 'routing as before');
    const warning = router.logs.find((entry) => entry.level === 'warn' && /is not valid/.test(entry.line));
    assert.ok(warning, router.logText());
    assert.ok(warning.line.includes(router.router.configPath), 'the log names the file');
    assert.match(warning.line, /invalid JSON/);
    for (const text of [router.logText(), JSON.stringify(event), JSON.stringify(api)])
      assert.ok(!text.includes('sk-hand'), 'no part of a key in the log, the event or the API');

    const key = await router.api('POST', '/api/providers/key', { provider: 'beta', apiKey: 'sk-new' });
    assert.equal(key.status, 409, key.text);
    const refused = parseReply<ErrorResponse>(key).error;
    assert.equal(refused.code, 'config_file_invalid');
    assert.match(refused.message, /is not valid .*invalid JSON/);
    const put = await save(router, { ...api.config, activeSet: 'spare' }, api.revision);
    assert.equal(put.status, 409, put.text);
    assert.equal(
      await readFile(router.router.configPath, 'utf8'),
      broken,
      'the broken edit is left as it is',
    );

    const fixed = nextFileEvent(router);
    await editByRename(router, JSON.stringify({ ...good, activeSet: 'spare' }));
    await settle(router);
    assert.equal((await fixed).status, 'applied');
    assert.equal((await shown(router)).fileProblem, null);
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2', 'the fixed edit is in use');
  });
});

test('a header line pasted as a header name is named by a placeholder in the log, the event and the API', async () => {
  await withScenario(TWO, async ({ router }) => {
    const canary = 'sk-pasted-canary-4411';
    const config = await readConfig(router);
    const alpha = config.providers?.alpha ?? {};
    // Copied from a curl command: the whole line where the name goes.
    const edit = {
      ...config,
      providers: {
        ...config.providers,
        alpha: { ...alpha, headers: { [`Authorization: Bearer ${canary}`]: '' } },
      },
    };
    const invalid = nextFileEvent(router);
    await writeFile(router.router.configPath, JSON.stringify(edit, null, 2));
    await settle(router);
    const event = await invalid;
    assert.ok(event.status === 'invalid');
    assert.deepEqual(
      event.issues.map((issue) => issue.path),
      ['providers.alpha.headers.<invalid name #1>'],
    );
    assert.match(event.issues[0]?.message ?? '', /not an HTTP header name/);
    const api = await shown(router);
    assert.deepEqual(api.fileProblem?.issues, event.issues);
    const warning = router.logs.find((entry) => entry.level === 'warn' && /is not valid/.test(entry.line));
    assert.match(warning?.line ?? '', /providers\.alpha\.headers\.<invalid name #1>: header name/);
    for (const text of [router.logText(), JSON.stringify(event), JSON.stringify(api)])
      assert.ok(!text.includes(canary), 'the key reaches neither the log, the event nor the API');
  });
});

test('a base URL with a password in it is a problem of the file named by its path alone, and routing goes on', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a'));
    const canary = 'pw-canary-5d0e';
    const config = await readConfig(router);
    const alpha = config.providers?.alpha ?? {};
    const baseUrl = (alpha.baseUrl ?? '').replace('http://', `http://user:${canary}@`);
    const edit = { ...config, providers: { ...config.providers, alpha: { ...alpha, baseUrl } } };
    const invalid = nextFileEvent(router);
    await writeFile(router.router.configPath, JSON.stringify(edit, null, 2));
    await settle(router);
    const event = await invalid;
    assert.ok(event.status === 'invalid');
    assert.deepEqual(
      event.issues.map((issue) => issue.path),
      ['providers.alpha.baseUrl'],
    );
    assert.match(event.issues[0]?.message ?? '', /user name or password.*apiKey/);
    const api = await shown(router);
    assert.deepEqual(api.fileProblem?.issues, event.issues);
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1', 'routing as before');
    for (const text of [router.logText(), JSON.stringify(event), JSON.stringify(api)])
      assert.ok(!text.includes(canary), 'the password reaches neither the log, the event nor the API');
  });
});
