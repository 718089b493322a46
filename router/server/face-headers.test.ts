/**
 * What of an agent's headers reaches a provider: the recorded Claude Code and Codex requests (translating
 * faces) and OpenCode, Qwen Code and Continue requests (the chat face), replayed at the real router with
 * their own headers (`x-api-key` or `Authorization`, `anthropic-beta`, `anthropic-version`, the OpenAI
 * SDK's `x-stainless-*`, session ids), are served over the black holes, and every upstream call carries
 * only the agent's name and the router's own headers, with the provider's key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../faces/test-kit.js';
import { AGENT_REPLY, agentModel } from '../test-support/agent-model.js';
import { CHAIN, GOOD, withBlackHoles } from '../test-support/face-scenario.js';
import { httpRequest } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

const FIXTURES = [
  'claude-code-2.1.332.first-turn.json',
  'claude-code-2.1.332.tool-result-turn.json',
  'codex-0.171.0.first-turn.json',
  'codex-0.171.0.tool-output-turn.json',
  'codex-0.171.0.namespace-tool-output-turn.json',
  'opencode-1.18.33.first-turn.json',
  'opencode-1.18.33.tool-result-turn.json',
  'qwen-code-0.24.4.first-turn.json',
  'qwen-code-0.24.4.tool-result-turn.json',
  'continue-cli-1.5.47.first-turn.json',
  'continue-cli-1.5.47.tool-result-turn.json',
];

/** The face a recorded request came in on. */
function faceOf(url: string): string {
  if (url.startsWith('/v1/messages')) return 'messages';
  return url.startsWith('/v1/responses') ? 'responses' : 'chat';
}

/** Headers an upstream call may carry: the transport's, the router's own, and the agent's name. */
const ALLOWED = new Set([
  'host',
  'connection',
  'content-length',
  'content-type',
  'accept',
  'x-request-id',
  'authorization',
  'user-agent',
]);

const AGENT_KEY = 'sk-agent-placeholder-7f3a91';

/** The recorded headers as the agent would send them to this router, with a recognisable key. */
function replayHeaders(recorded: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded)) {
    if (name === 'host' || name === 'connection') continue;
    if (name === 'x-api-key') headers[name] = AGENT_KEY;
    else if (name === 'authorization') headers[name] = `Bearer ${AGENT_KEY}`;
    else headers[name] = value;
  }
  return headers;
}

test('recorded agent requests replayed with their own headers: served, and only the agent’s name goes upstream', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    upstream.always(GOOD, agentModel());
    // Recorded turns of one conversation: its first meets both holes, the later ones stay on the model that
    // served it. An agent that names no session (Qwen Code, Continue) is known by how its conversation begins,
    // which each agent's two recorded turns share.
    const sessions = new Set<string>();
    for (const name of FIXTURES) {
      const recorded = fixture(name);
      const session =
        recorded.headers['x-claude-code-session-id'] ??
        recorded.headers['session-id'] ??
        recorded.headers['x-session-id'] ??
        name.replace(/\.[a-z-]+-turn\.json$/, '');
      const firstTurn = !sessions.has(session);
      sessions.add(session);
      const before = upstream.calls.length;
      const reply = await httpRequest(`${router.url}${recorded.url}`, {
        method: 'POST',
        headers: replayHeaders(recorded.headers),
        body: JSON.stringify(recorded.body),
      });
      assert.equal(reply.status, 200, `${name}: ${reply.text.slice(0, 300)}`);
      assert.match(String(reply.headers['x-fcm-v2-decision']), /^good\/coder!served\|/, name);
      // A first turn asking `run: …` is answered with a call of the agent's shell tool.
      assert.ok(
        reply.text.includes(AGENT_REPLY) ||
          reply.text.includes('The command printed') ||
          reply.text.includes('printf fcm-agent-%s fixture'),
        `${name}: the model's answer`,
      );
      const calls = upstream.calls.slice(before);
      assert.deepEqual(
        calls.map((call) => call.key),
        firstTurn ? CHAIN : [GOOD],
        `${name}: ${firstTurn ? 'both holes, then the good model' : 'on the model of its conversation'}`,
      );
      for (const call of calls) {
        const extra = Object.keys(call.headers).filter((header) => !ALLOWED.has(header));
        assert.deepEqual(extra, [], `${name}: headers that reached ${call.key}`);
        assert.equal(call.headers['user-agent'], recorded.headers['user-agent']);
        assert.equal(call.headers.authorization, `Bearer sk-test-${call.provider}`);
        assert.ok(!call.rawBody.includes(AGENT_KEY), `${name}: the agent's key is not in the body`);
      }
      const entry = router.lastEntry();
      assert.equal(entry.api, faceOf(recorded.url));
      assert.equal(entry.outcome, 'served');
    }
    const history = JSON.stringify(router.router.history(20));
    assert.ok(
      !history.includes(AGENT_KEY) && !router.logText().includes(AGENT_KEY),
      'the key is kept nowhere',
    );
  });
});

test('no face forwards a client credential: every face passes the same few headers upstream', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const credentials: Record<string, string> = {
      authorization: `Bearer ${AGENT_KEY}`,
      'x-api-key': AGENT_KEY,
      'x-goog-api-key': AGENT_KEY,
      'anthropic-api-key': AGENT_KEY,
      'x-auth-token': AGENT_KEY,
      'openai-organization': 'org-agent-7f3a',
      'openai-project': 'proj-agent-7f3a',
      'api-key': AGENT_KEY,
      cookie: `session=${AGENT_KEY}`,
      'x-custom-secret': AGENT_KEY,
    };
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'agent/1.0',
      'x-title': 'My agent',
      ...credentials,
    };
    const bodies: Record<string, unknown> = {
      '/v1/chat/completions': { model: 'fcm', messages: [{ role: 'user', content: 'hi' }] },
      '/v1/messages': { model: 'fcm', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] },
      '/v1/responses': { model: 'fcm', input: 'hi' },
    };
    for (const [path, body] of Object.entries(bodies)) {
      const reply = await httpRequest(`${router.url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
      const call = upstream.calls.at(-1);
      assert.ok(call);
      const extra = Object.keys(call.headers).filter(
        (header) => !ALLOWED.has(header) && header !== 'x-title',
      );
      assert.deepEqual(extra, [], `${path}: client headers that reached the provider`);
      assert.equal(call.headers.authorization, 'Bearer sk-test-alpha');
      assert.equal(call.headers['user-agent'], 'agent/1.0');
      assert.equal(call.headers['x-title'], 'My agent', `${path}: an app's attribution header goes along`);
      assert.ok(!JSON.stringify(call.headers).includes('7f3a'), `${path}: no credential upstream`);
    }
  });
});
