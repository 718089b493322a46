import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TEST_EPOCH } from './test-clock.js';

/**
 * A temp dir whose `state/latency.json` already knows the models' times to first byte (as after earlier
 * traffic), for a scenario's `dir`: `fastest` ordering then has figures without waiting on real time.
 */
export async function seededLatencyDir(
  models: Record<string, { ttfbMs: number; lastAt?: number }>,
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-it-'));
  await mkdir(path.join(dir, 'state'), { recursive: true });
  const entries = Object.entries(models).map(([key, { ttfbMs, lastAt }]) => [
    key,
    { ttfbMs, tokensPerSec: null, recent: [ttfbMs], samples: 1, lastAt: lastAt ?? TEST_EPOCH },
  ]);
  const body = { version: 1, savedAt: TEST_EPOCH, models: Object.fromEntries(entries) };
  await writeFile(path.join(dir, 'state', 'latency.json'), JSON.stringify(body));
  return dir;
}
