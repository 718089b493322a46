import { test } from 'node:test';
import assert from 'node:assert/strict';
import { walkRequests } from './request-walk.js';

test('the walk of a request lists what that request ran, not what starting the router ran', async () => {
  const walks = await walkRequests();
  assert.deepEqual([...walks.keys()], ['POST /v1/chat/completions (JSON)', 'POST /v1/messages (stream)']);
  for (const [name, walk] of walks) {
    const ran = (file: string) =>
      walk.files.find((entry) => entry.file === file)?.functions.map((f) => f.name);
    assert.ok(ran('router/engine/route-request.ts')?.includes('routeRequest'), `${name} routes the request`);
    assert.equal(ran('router/start-router.ts'), undefined, `${name} does not count the start`);
    assert.equal(
      walk.functionCount,
      walk.files.reduce((sum, file) => sum + file.functions.length, 0),
    );
    assert.ok(walk.files.every((entry) => !entry.file.includes('test-support')));
  }
  const messages = walks.get('POST /v1/messages (stream)');
  assert.ok(messages?.files.some((entry) => entry.file === 'router/faces/anthropic-stream.ts'));
  const chat = walks.get('POST /v1/chat/completions (JSON)');
  assert.equal(
    chat?.files.some((entry) => entry.file === 'router/faces/anthropic-stream.ts'),
    false,
    'the chat walk holds none of the messages stream',
  );
});
