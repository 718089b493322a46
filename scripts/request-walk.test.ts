import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Walk } from './coverage-walk.js';
import { walkRequests } from './request-walk.js';

test('the walk of a request lists what that request ran, not what starting the router ran', async () => {
  const walks = await walkRequests();
  assert.deepEqual([...walks.keys()], ['POST /v1/chat/completions (JSON)', 'POST /v1/messages (stream)']);
  for (const [name, walk] of walks) {
    const names = new Set(walk.files.flatMap((entry) => entry.functions.map((fn) => fn.name)));
    assert.ok(names.has('routeRequest'), `${name} routes the request`);
    assert.ok(!names.has('startRouter'), `${name} does not count the start`);
    assert.equal(
      walk.functionCount,
      walk.files.reduce((sum, file) => sum + file.functions.length, 0),
    );
    assert.ok(walk.files.every((entry) => !entry.file.includes('test-support')));
    const files = walk.files.map((entry) => entry.file);
    assert.ok(
      !files.includes('router/daemon/router-handle.ts'),
      `${name}: the walk's own listener is not counted`,
    );
    assert.equal(walk.filesBeforeEnd + walk.filesOnlyAfter.length, files.length);
    assert.ok(
      walk.filesOnlyAfter.includes('router/state/request-history.ts'),
      `${name}: booked after the answer`,
    );
    assert.ok(
      !walk.filesOnlyAfter.includes('router/server/face-route.ts'),
      `${name}: read before the answer`,
    );
  }
  const streamWriter = (walk: Walk | undefined) =>
    walk?.files.some((entry) => entry.functions.some((fn) => fn.name === 'AnthropicStreamWriter'));
  assert.equal(streamWriter(walks.get('POST /v1/messages (stream)')), true);
  assert.equal(
    streamWriter(walks.get('POST /v1/chat/completions (JSON)')),
    false,
    'the chat walk holds no messages stream',
  );
  const chatFiles = walks.get('POST /v1/chat/completions (JSON)')?.files.map((entry) => entry.file) ?? [];
  assert.deepEqual(
    chatFiles.filter(
      (file) => file.startsWith('router/engine/stream/') || file === 'router/gate/sse-frames.ts',
    ),
    [],
    'an answer served whole sets up no stream machinery',
  );
  for (const [file, why] of [
    ['router/catalogue/free-tier-limits.ts', 'whether a model has limits is known at config resolution'],
    ['router/daemon/state-stores.ts', "the stores are fed without the daemon's closures"],
    ['router/state/breaker.ts', 'a success on a model with no breaker record has nothing to record'],
  ] as const)
    assert.ok(!chatFiles.includes(file), `the chat walk does not visit ${file}: ${why}`);
  const fitNow = walks
    .get('POST /v1/chat/completions (JSON)')
    ?.files.find((entry) => entry.file === 'router/engine/fit/fit-steps.ts')
    ?.functions.find((fn) => fn.name === 'fitNow');
  assert.equal(fitNow?.calls, 1, 'the one candidate is fitted once');
});
