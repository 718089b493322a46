import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { startHarness } from '../test-support/router-harness.js';

/** More connections than Node's default listen backlog (511) lets the kernel hold. */
const BURST = 1500;

/** The kernel's cap on any listen backlog, or 0 where it cannot be read (not Linux). */
function somaxconn(): number {
  try {
    return Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/**
 * Opens `count` connections to `port` at once from another process and prints how many the kernel
 * completed, once all have or `waitMs` has passed. A SYN the full accept queue drops is retried after 1 s,
 * then 3 s and 7 s.
 */
const CONNECTOR = `
const net = require('node:net');
const [port, count, waitMs] = process.argv.slice(1).map(Number);
let connected = 0;
const sockets = [];
const done = () => { process.stdout.write(String(connected)); for (const s of sockets) s.destroy(); process.exit(0); };
setTimeout(done, waitMs);
for (let i = 0; i < count; i += 1) {
  const socket = net.connect(port, '127.0.0.1', () => { connected += 1; if (connected === count) done(); });
  socket.on('error', () => {});
  sockets.push(socket);
}`;

describe('listen backlog', () => {
  it(
    'holds a burst of connections the router has not accepted yet, instead of dropping their SYNs',
    { skip: somaxconn() < BURST ? 'needs Linux with net.core.somaxconn >= 1500' : false },
    async () => {
      const router = await startHarness({ config: {} });
      try {
        const port = Number(new URL(router.url).port);
        // spawnSync blocks this process, router included, while the burst arrives: nothing is accepted,
        // so every connection has to wait in the kernel's accept queue, whose length is the backlog.
        const run = spawnSync(process.execPath, ['-e', CONNECTOR, String(port), String(BURST), '4000'], {
          encoding: 'utf8',
          timeout: 20_000,
        });
        assert.equal(run.status, 0, run.stderr);
        assert.equal(Number(run.stdout), BURST, `connections completed while the router was busy`);
        const health = await router.get('/health');
        assert.equal(health.status, 200);
      } finally {
        await router.close();
      }
    },
  );
});
