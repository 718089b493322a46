import { test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { ConfigResponse, ErrorResponse, HistoryResponse, StateResponse } from '../api-types.js';
import { MASKED_SECRET } from '../api-types.js';
import { within } from '../test-support/deferred.js';
import { empty200, json } from '../test-support/upstream-behaviours.js';
import { openRequest, parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';

const PROVIDERS = { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] };
const SETS = { main: ['alpha/m1', 'beta/m2'], spare: ['gamma/m3'] };

test('GET /api/state: active set first in routing order, then other sets, then pinned models', async () => {
  const providers = { ...PROVIDERS, delta: ['m4'] };
  await withScenario({ providers, sets: SETS }, async ({ router, upstream }) => {
    upstream
      .script('alpha/m1', empty200(), empty200())
      .always('beta/m2', json('b'))
      .always('delta/m4', json('d'));
    await router.chat();
    await router.chat();
    await router.chat({ model: 'fcm:@delta/m4' });
    const reply = await router.get('/api/state');
    assert.equal(reply.status, 200);
    const state = parseReply<StateResponse>(reply);
    assert.equal(state.activeSet, 'main');
    assert.deepEqual(state.sets, SETS);
    assert.equal(state.paused, false);
    assert.equal(state.failureThreshold, 3);
    assert.deepEqual(
      state.models.map((model) => model.key),
      ['beta/m2', 'alpha/m1', 'gamma/m3', 'delta/m4'],
    );
    const alpha = state.models[1];
    assert.ok(alpha);
    assert.equal(alpha.state, 'DEGRADED');
    assert.equal(alpha.consecutiveFailures, 2);
    assert.equal(alpha.tripCount, 0);
    assert.equal(alpha.openUntil, null);
    assert.equal(alpha.quotaPausedUntil, null);
    assert.equal(alpha.authBlocked, false);
    assert.equal(alpha.lastFailureKind, 'empty_choices');
    assert.equal(alpha.inActiveSet, true);
    assert.equal(alpha.provider, 'alpha');
    assert.equal(alpha.modelId, 'm1');
    assert.equal(alpha.stats.attempts, 2);
    assert.equal(state.models[2]?.inActiveSet, false);
  });
});

test('GET /api/history?limit=N: newest first, with the client token and stats', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a'));
    await router.chat({}, { headers: { 'user-agent': 'opencode/1.18.33 ai-sdk/5.0 node' } });
    await router.chat({ stream: false }, { headers: { 'user-agent': 'claude-cli/2.0' } });
    await router.chat();
    const reply = await router.get('/api/history?limit=2');
    assert.equal(reply.status, 200);
    const history = parseReply<HistoryResponse>(reply);
    assert.equal(history.entries.length, 2);
    assert.equal(history.entries[1]?.client, 'claude-cli/2.0');
    const all = parseReply<HistoryResponse>(await router.get('/api/history?limit=10'));
    assert.equal(all.entries.length, 3);
    assert.equal(all.entries[2]?.client, 'opencode/1.18.33');
    const entry = all.entries[0];
    assert.ok(entry);
    for (const field of [
      'requestId',
      'at',
      'modelRequested',
      'set',
      'pinned',
      'servedModel',
      'outcome',
      'stream',
      'wallMs',
      'attempts',
      'skipped',
      'clientStatus',
      'lastResortUsed',
      'usage',
    ]) {
      assert.ok(field in entry, field);
    }
    assert.equal(entry.servedModel, 'alpha/m1');
    assert.equal(entry.clientStatus, 200);
    assert.equal(all.stats.retained, 3);
    assert.equal(all.stats.served, 3);
    assert.equal(all.stats.successRate, 1);
  });
});

/** Reads SSE events from an open `/api/events` response until `count` events of interest arrived. */
function collectEvents(
  res: IncomingMessage,
  wanted: (type: string) => boolean,
  count: number,
): Promise<{ type: string; data: unknown }[]> {
  return new Promise((resolve, reject) => {
    const events: { type: string; data: unknown }[] = [];
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const type = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (type && data && wanted(type)) events.push({ type, data: JSON.parse(data) as unknown });
        if (events.length >= count) resolve(events);
        end = buffer.indexOf('\n\n');
      }
    });
    res.on('error', reject);
  });
}

test('GET /api/events delivers request, breaker and config events', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', empty200()).always('beta/m2', json('b'));
    const open = openRequest(`${router.url}/api/events`);
    const res = await open.response;
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/event-stream/);
    const seen = collectEvents(res, (type) => ['request', 'breaker', 'config'].includes(type), 3);
    await router.chat();
    const saved = await router.api('POST', '/api/sets/active', { set: 'spare' });
    assert.equal(saved.status, 200, saved.text);
    const events = await within(seen, 'request, breaker and config events');
    open.request.destroy();
    const byType = new Map(events.map((event) => [event.type, event.data]));
    const breaker = byType.get('breaker') as { model: { key: string; consecutiveFailures: number } };
    assert.equal(breaker.model.key, 'alpha/m1');
    assert.equal(breaker.model.consecutiveFailures, 1);
    const request = byType.get('request') as { entry: { servedModel: string } };
    assert.equal(request.entry.servedModel, 'beta/m2');
    const config = byType.get('config') as { activeSet: string; changed: string[] };
    assert.equal(config.activeSet, 'spare');
    assert.ok(config.changed.includes('activeSet'));
  });
});

test('GET /api/config masks every key; PUT validates, saves 0600 atomically and applies at once', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a')).always('gamma/m3', json('g'));
    const shown = parseReply<ConfigResponse>(await router.get('/api/config'));
    assert.equal(shown.config.providers?.alpha?.apiKey, MASKED_SECRET);
    assert.equal(shown.effective.providers?.alpha?.apiKey, MASKED_SECRET);
    assert.equal(shown.path, router.router.configPath);

    const bad = await router.api('PUT', '/api/config', {
      ...shown.config,
      router: { failover: { requestTimeoutMs: 10, bogus: true } },
    });
    assert.equal(bad.status, 400);
    const issues = parseReply<ErrorResponse>(bad).error.issues ?? [];
    const paths = issues.map((issue) => issue.path).sort();
    assert.deepEqual(paths, ['router.failover.bogus', 'router.failover.requestTimeoutMs']);

    const next = { ...shown.config, sets: { ...SETS, main: ['gamma/m3', 'alpha/m1'] } };
    const saved = await router.api('PUT', '/api/config', next);
    assert.equal(saved.status, 200, saved.text);
    assert.ok(
      (JSON.parse(saved.text) as { changed: string[] }).changed.some((path) => path.startsWith('sets')),
    );
    const file = router.router.configPath;
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(
      (await readdir(router.dir)).sort(),
      ['config.json', 'renderer', 'state'],
      'no temp file left behind',
    );
    const written = JSON.parse(await readFile(file, 'utf8')) as typeof next;
    assert.deepEqual(written.sets?.main, ['gamma/m3', 'alpha/m1']);
    assert.equal(
      written.providers?.alpha?.apiKey,
      'sk-test-alpha',
      'a masked key sent back keeps the real one',
    );

    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-model'], 'gamma/m3', 'applied without a restart');
  });
});

test('POST /api/pause: chat requests get 503 router_paused with decision headers until resumed', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a'));
    assert.equal((await router.api('POST', '/api/pause', { paused: true })).status, 200);
    assert.equal(parseReply<StateResponse>(await router.get('/api/state')).paused, true);
    const paused = await router.chat();
    assert.equal(paused.status, 503);
    assert.equal(parseReply<ErrorResponse>(paused).error.code, 'router_paused');
    assert.equal(paused.headers['x-fcm-v2-decision'], 'none!rejected||skips=0');
    assert.ok(paused.headers['retry-after']);
    assert.equal(upstream.calls.length, 0);
    assert.equal(router.lastEntry().outcome, 'rejected');
    assert.equal((await router.api('POST', '/api/pause', { paused: false })).status, 200);
    assert.equal((await router.chat()).status, 200);
  });
});

test('paused, the agents’ SDKs show the pause at once: no silent retries', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router }) => {
    assert.equal((await router.api('POST', '/api/pause', { paused: true })).status, 200);
    const anthropic = new Anthropic({ baseURL: router.url, apiKey: 'any', maxRetries: 3 });
    const ask = { model: 'fcm', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
    await assert.rejects(anthropic.messages.create(ask), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError);
      assert.equal(error.status, 503);
      assert.match(error.message, /routing is paused \(resume it with `fcm-router resume`/);
      return true;
    });
    const openai = new OpenAI({ baseURL: `${router.url}/v1`, apiKey: 'any', maxRetries: 3 });
    const chat = { model: 'fcm', messages: [{ role: 'user' as const, content: 'Hi' }] };
    await assert.rejects(openai.chat.completions.create(chat), { status: 503 });
    // One request each reached the router: neither SDK tried again.
    const history = parseReply<HistoryResponse>(await router.get('/api/history?limit=10'));
    assert.deepEqual(
      history.entries.map((entry) => [entry.api, entry.outcome]),
      [
        ['chat', 'rejected'],
        ['messages', 'rejected'],
      ],
    );
  });
});
