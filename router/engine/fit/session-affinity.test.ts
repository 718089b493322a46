/**
 * A conversation stays on its model, on the real router over fake upstreams: a session's turns go to the
 * model that served its last one, ahead of a set reordered meanwhile (marked `sticky` in history); a new
 * session starts at the top; a failure moves the session and its new model becomes home; an idle hour
 * forgets it. Sessions are kept as short hashes, never their ids.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionHash } from '../../server/session-id.js';
import { scenarioConfig, withScenario, type ScenarioOptions } from '../../test-support/scenario.js';
import { json, status } from '../../test-support/upstream-behaviours.js';

const A = 'a/m';
const B = 'b/m';
const options: ScenarioOptions = { providers: { a: ['m'], b: ['m'] }, sets: { main: [A, B] } };
const claude = (id: string) => ({ headers: { 'x-claude-code-session-id': id } });
const codex = (id: string) => ({ headers: { 'session-id': id, 'thread-id': id } });

test('a session stays on its model across a reordered set; a new session starts at the top', async () => {
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always(A, json('from a')).always(B, json('from b'));
    await router.chat({}, claude('session-1'));
    assert.equal(router.lastEntry().servedModel, A);
    assert.equal(router.lastEntry().sticky, undefined, 'a new session has no home yet');
    const reordered = scenarioConfig(upstream, { ...options, sets: { main: [B, A] } });
    assert.equal((await router.api('PUT', '/api/config', reordered)).status, 200);

    await router.chat({}, claude('session-1'));
    const entry = router.lastEntry();
    assert.equal(entry.servedModel, A, 'the conversation stays on its model');
    assert.equal(entry.sticky, A);
    assert.equal(entry.session, sessionHash('session-1'));
    assert.ok(!JSON.stringify(router.router.history(10)).includes('session-1'), 'ids are never kept');

    await router.chat({}, codex('session-2'));
    assert.equal(router.lastEntry().servedModel, B, 'a new session starts at the top of the set');
    assert.equal(router.lastEntry().sticky, undefined);
  });
});

test('a failing home moves the session: the model that served becomes its home', async () => {
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script(A, json('from a'), status(500)).always(A, json('from a again')).always(B, json('from b'));
    await router.chat({}, claude('s'));
    assert.equal(router.lastEntry().servedModel, A);
    await router.chat({}, claude('s'));
    assert.equal(router.lastEntry().servedModel, B, 'the home failed: the next model served');
    await router.chat({}, claude('s'));
    const entry = router.lastEntry();
    assert.equal(entry.servedModel, B, 'the session moved with the answer');
    assert.equal(entry.sticky, B);
    assert.deepEqual(
      entry.attempts.map((attempt) => attempt.model),
      [B],
    );
  });
});

test('a session idle for an hour starts at the top again', async () => {
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script(A, status(500)).always(A, json('from a')).always(B, json('from b'));
    await router.chat({}, claude('s'));
    assert.equal(router.lastEntry().servedModel, B);
    await router.chat({}, claude('s'));
    assert.equal(router.lastEntry().sticky, B);
    router.clock.advance(60 * 60 * 1000);
    await router.chat({}, claude('s'));
    assert.equal(router.lastEntry().servedModel, A);
    assert.equal(router.lastEntry().sticky, undefined);
  });
});

test('Claude Code’s metadata.user_id names its session on the Messages face', async () => {
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always(A, json('from a')).always(B, json('from b'));
    const user = JSON.stringify({ device_id: 'd', account_uuid: '', session_id: 'x' });
    const body = {
      model: 'fcm',
      max_tokens: 100,
      metadata: { user_id: user },
      messages: [{ role: 'user', content: 'hi' }],
    };
    const reply = await router.api('POST', '/v1/messages', body);
    assert.equal(reply.status, 200);
    assert.equal(router.lastEntry().session, sessionHash(user));
  });
});

test('OpenCode’s x-session-id names its session on the chat face', async () => {
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script(A, status(500)).always(A, json('from a')).always(B, json('from b'));
    // As OpenCode 1.18 sends it: the same id twice, on every request of a session (its title request too).
    const opencode = { headers: { 'x-session-id': 'ses_1', 'x-session-affinity': 'ses_1' } };
    await router.chat({}, opencode);
    assert.equal(router.lastEntry().servedModel, B);
    assert.equal(router.lastEntry().session, sessionHash('ses_1'));
    await router.chat({}, opencode);
    assert.equal(router.lastEntry().servedModel, B, 'the tool-result turn stays on the model of its session');
    assert.equal(router.lastEntry().sticky, B);
  });
});

/** A conversation as Qwen Code and Continue send it, with no session id: its turns so far, then `last`. */
const turns = (first: string, ...rest: { role: string; content: string }[]) => ({
  messages: [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: first },
    ...rest,
  ],
});

test('an agent that names no session is known by how its conversation begins: its second turn goes where its first was served', async () => {
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script(A, status(500)).always(A, json('from a')).always(B, json('from b'));
    await router.chat(turns('fix the bug'));
    const first = router.lastEntry();
    assert.equal(first.servedModel, B, 'A failed the first turn: B served it');
    assert.equal(first.sticky, undefined);
    const session = first.session;
    assert.match(String(session), /^[0-9a-f]{16}$/);
    // Its words are keyed with this process's own secret: the hash cannot be checked against a guess of them.
    assert.notEqual(session, sessionHash('You are a coding agent.\u0000fix the bug'));

    const second = turns(
      'fix the bug',
      { role: 'assistant', content: 'from b' },
      { role: 'user', content: 'go on' },
    );
    await router.chat(second);
    assert.equal(
      router.lastEntry().servedModel,
      B,
      'the second turn goes to the model of the first, A healthy again',
    );
    assert.equal(router.lastEntry().sticky, B);
    assert.equal(router.lastEntry().session, session);

    // The first turn sent again (a one-off request repeated, or the conversation begun anew) goes down the
    // set: only a later turn goes back to a model.
    await router.chat(turns('fix the bug'));
    assert.equal(router.lastEntry().servedModel, A);
    assert.equal(router.lastEntry().sticky, undefined);
    assert.equal(router.lastEntry().session, session);

    await router.chat(
      turns(
        'fix the bug',
        { role: 'assistant', content: 'from a' },
        { role: 'user', content: 'go on' },
        { role: 'assistant', content: 'from a' },
        { role: 'user', content: 'and the tests' },
      ),
    );
    assert.equal(router.lastEntry().sticky, A, 'the conversation goes on where its last turn was served');

    await router.chat(
      turns('write docs', { role: 'assistant', content: 'from a' }, { role: 'user', content: 'more' }),
    );
    assert.equal(router.lastEntry().servedModel, A, 'another conversation starts at the top of the set');
    assert.equal(router.lastEntry().sticky, undefined);
    assert.notEqual(router.lastEntry().session, session);
    const history = JSON.stringify(router.router.history(10));
    for (const words of ['fix the bug', 'coding agent', 'write docs']) assert.ok(!history.includes(words));
  });
});
