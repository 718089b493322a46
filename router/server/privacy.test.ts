import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { jsonBody, sse, sseContent, type Behaviour } from '../test-support/upstream-behaviours.js';
import { contentFrame, errorFrame, roleFrame } from '../test-support/upstream-frames.js';
import { openRequest } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { allFiles } from '../test-support/state-test-helpers.js';
import { REFUSAL_WORDS_MAX } from '../gate/refusal-words.js';

const CANARY_PROMPT = 'CANARY-PROMPT-7f3a9c21-do-not-store';
const CANARY_KEY = 'sk-CANARY-KEY-5e8d0b44';
const CANARY_CLIENT_KEY = 'sk-CANARY-CLIENT-91ab';

/** An upstream that echoes the prompt back in its error text, as some providers do. */
const echoError =
  (code: number): Behaviour =>
  (res, call) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { message: `bad request: ${call.rawBody}`, type: 'invalid_request_error' } }),
    );
  };

/** An upstream that refuses the request quoting the prompt and the key it was sent. */
const quotingRefusal: Behaviour = (res, call) => {
  res.writeHead(400, { 'content-type': 'application/json' });
  const message = `key ${call.headers.authorization ?? ''} may not send ${call.rawBody.slice(0, 120)}`;
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
};

/** A refusal whose quoted key straddles the longest quotation an error carries. */
const keyAtTheCut: Behaviour = (res, call) => {
  res.writeHead(400, { 'content-type': 'application/json' });
  const message = `${'x'.repeat(REFUSAL_WORDS_MAX - 14)} ${call.headers.authorization ?? ''} refused`;
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
};

test('prompts and keys never reach state files, logs, history, state, events or config answers', async () => {
  const options = {
    providers: { alpha: ['m1', 'e1', 'e2', 'e3', 'e4', 'r1', 'r2'], beta: ['m2', 's1'] },
    keys: { alpha: CANARY_KEY, beta: CANARY_KEY },
    sets: { main: ['alpha/m1', 'beta/m2'] },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script('alpha/m1', echoError(400));
    upstream.script('beta/m2', jsonBody({ choices: [{ message: { content: `echo ${CANARY_PROMPT}` } }] }));
    upstream.script(
      'alpha/e1',
      sse([roleFrame(), errorFrame(`failed on ${CANARY_PROMPT}`)], { done: false }),
    );
    upstream.script(
      'alpha/e2',
      sse([contentFrame('partial '), errorFrame(`mid-stream ${CANARY_PROMPT}`)], { done: false }),
    );
    upstream.script('alpha/e3', jsonBody({ error: { message: `cannot answer ${CANARY_PROMPT}` } }));
    upstream.script('beta/s1', sseContent([`echo ${CANARY_PROMPT}`]));
    upstream.script('alpha/e4', echoError(500));
    upstream.script('alpha/r1', quotingRefusal);
    upstream.script('alpha/r2', keyAtTheCut);

    const events = openRequest(`${router.url}/api/events`);
    const eventsRes = await events.response;
    let eventText = '';
    eventsRes.setEncoding('utf8');
    eventsRes.on('data', (chunk: string) => (eventText += chunk));

    const messages = [{ role: 'user', content: `Please fix this: ${CANARY_PROMPT}` }];
    const headers = {
      authorization: `Bearer ${CANARY_CLIENT_KEY}`,
      'user-agent': `agent/1 ${CANARY_PROMPT}`,
    };
    const served = await router.chat({ messages }, { headers });
    assert.equal(served.status, 200);
    assert.ok(served.text.includes(CANARY_PROMPT), 'the client does get its answer');
    await router.chat({ messages, stream: true, model: 'fcm:@alpha/e1' }, { headers });
    await router.chat({ messages, stream: true, model: 'fcm:@alpha/e2' }, { headers });
    await router.chat({ messages, model: 'fcm:@alpha/e3' }, { headers });
    await router.chat({ messages, stream: true, model: 'fcm:@beta/s1' }, { headers });
    await router.chat({ messages, model: 'fcm:@alpha/e4' }, { headers });
    // The refusal's own words go to the client that sent the request, without the provider's key.
    const refused = await router.chat({ messages, model: 'fcm:@alpha/r1' }, { headers });
    assert.equal(refused.status, 400);
    assert.ok(refused.text.includes('the last said: key Bearer [key] may not send'), refused.text);
    assert.ok(!refused.text.includes(CANARY_KEY), 'the provider key is blotted out');
    const cut = await router.chat({ messages, model: 'fcm:@alpha/r2' }, { headers });
    assert.ok(cut.text.includes('Bearer [key]'), cut.text);
    assert.ok(!cut.text.includes('Bearer sk'), 'no part of the key is left where the words are cut');
    assert.ok(upstream.calls.every((call) => call.headers.authorization === `Bearer ${CANARY_KEY}`));
    const outcomes = router.router
      .history(10)
      .entries.map(
        (entry) => `${entry.outcome}:${entry.attempts.map((attempt) => attempt.kind ?? 'ok').join(',')}`,
      );
    assert.deepEqual(outcomes, [
      'all_failed:invalid_request',
      'all_failed:invalid_request',
      'all_failed:server_error',
      'served:ok',
      'all_failed:error_payload',
      'partial:mid_stream_error',
      'all_failed:error_payload',
      'served:invalid_request,ok',
    ]);

    const answers = await Promise.all(
      ['/api/history?limit=500', '/api/state', '/api/config', '/api/providers', '/v1/models'].map((p) =>
        router.get(p),
      ),
    );
    events.request.destroy();
    await router.stop();

    const haystacks: [string, string][] = [
      ['log lines', router.logText()],
      ['events', eventText],
      ...answers.map((answer, i): [string, string] => [`answer ${i}`, answer.text]),
    ];
    for (const file of await allFiles(router.stateDir)) haystacks.push([file, await readFile(file, 'utf8')]);
    assert.ok(
      haystacks.some(([name]) => name.endsWith('history.json')),
      'history was written',
    );
    assert.ok(eventText.includes('event: request'), 'events were captured');
    for (const [name, text] of haystacks) {
      for (const canary of [CANARY_PROMPT, CANARY_KEY, CANARY_CLIENT_KEY, 'CANARY']) {
        assert.ok(!text.includes(canary), `${canary} leaked into ${name}`);
      }
    }
  });
});
