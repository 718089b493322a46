import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Pool } from 'undici';
import { chatBody, timedRequest } from './load-client.js';
import { HEAP_METER, heapAllocated, withCost } from './process-cost.js';
import { startChild, type ChildHandle } from './proc.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('the heap meter', () => {
  let upstream: ChildHandle;
  let pool: Pool;
  before(async () => {
    upstream = await startChild(['--import', HEAP_METER, path.join(HERE, 'fake-upstream-fast.ts')]);
    pool = new Pool(upstream.url, { connections: 4 });
  });
  after(async () => {
    await pool.close();
    await upstream.stop();
  });

  const ask = async (n: number): Promise<{ sent: number }> => {
    const body = chatBody('bench/model', false);
    for (let i = 0; i < n; i += 1) assert.ok((await timedRequest(pool, body)).ok);
    return { sent: n };
  };

  it('counts what a process allocates, GCs included, and nothing while it is idle', async () => {
    const first = await heapAllocated(upstream);
    const idle = await heapAllocated(upstream);
    await ask(2000);
    const busy = await heapAllocated(upstream);
    // Each request allocates its parsed head and the request and response objects: well over 1 KB.
    assert.ok(busy - idle > 2000 * 1024, `${busy - idle} bytes for 2000 answers`);
    assert.ok(idle - first < (busy - idle) / 10, `${idle - first} bytes while idle`);
  });

  it("divides a workload's CPU and heap by the requests it sent", async () => {
    const { result, cost } = await withCost(upstream, () => ask(500));
    assert.equal(result.sent, 500);
    assert.ok(cost.heapKb > 1, `${cost.heapKb} KB per request`);
    assert.ok(Number.isFinite(cost.cpuUs) && cost.cpuUs >= 0);
  });
});
