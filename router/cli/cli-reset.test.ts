/**
 * `fcm-router reset <model>` against a real daemon: the line printed says what the reset changed (the
 * breaker's state before, a quota pause lifted), or that there was nothing to reset.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { CliProcess, runCli } from '../test-support/cli-process.js';
import { chatTo, withCliSetup } from '../test-support/cli-setup.js';
import { scenarioConfig } from '../test-support/scenario.js';
import { json, status } from '../test-support/upstream-behaviours.js';

const URL_LINE = /listening on (http:\/\/\S+)/;

test('reset says what it changed: a degraded breaker closed, a quota pause lifted, or nothing to reset', async () => {
  await withCliSetup(null, async ({ stateDir, configFile, upstream, args }) => {
    // One failure degrades the breaker (of five to open it).
    const breaker = { failureThreshold: 5, degradedRatio: 0.2 };
    const config = scenarioConfig(upstream, { providers: { alpha: ['m1'] }, breaker });
    await writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
    const daemon = new CliProcess([...args, '--port', '0']);
    try {
      const [, url] = await daemon.waitForLine(URL_LINE);
      assert.ok(url);
      const reset = async (): Promise<string> => {
        const run = await runCli(['reset', 'alpha/m1', '--state-dir', stateDir]);
        assert.equal(run.code, 0, run.output);
        return run.output.trim();
      };
      assert.equal(await reset(), 'alpha/m1: nothing to reset (closed, not paused)');

      upstream.always('alpha/m1', status(500));
      assert.notEqual((await chatTo(url)).status, 200);
      assert.equal(await reset(), 'alpha/m1: breaker closed (was degraded)');

      upstream.always('alpha/m1', status(429, { retryAfter: '600' }));
      assert.notEqual((await chatTo(url)).status, 200);
      assert.equal(await reset(), 'alpha/m1: quota pause lifted');

      upstream.always('alpha/m1', json('ok'));
      assert.equal((await chatTo(url)).status, 200, 'the model serves again');
    } finally {
      await daemon.kill();
    }
  });
});
