/**
 * Agents may send one `x-request-id` with several requests: each still has a history entry of its own, told
 * apart by its number (`seq`), in `/api/history` and in the `request` event alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryEntry, HistoryResponse } from '../api-types.js';
import { parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

test('three requests with one request id are three entries, numbered one after another', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const events: HistoryEntry[] = [];
    router.router.on('request', (event) => events.push(event.entry));
    for (let i = 0; i < 3; i++) {
      const reply = await router.chat({}, { headers: { 'x-request-id': 'reused-id' } });
      assert.equal(reply.status, 200);
    }
    const { entries } = parseReply<HistoryResponse>(await router.get('/api/history'));
    assert.deepEqual(
      entries.map((entry) => [entry.requestId, entry.seq]),
      [
        ['reused-id', 3],
        ['reused-id', 2],
        ['reused-id', 1],
      ],
    );
    assert.deepEqual(
      events.map((entry) => entry.seq),
      [1, 2, 3],
    );
  });
});
