/**
 * Demo mode's own config, `<state folder>/demo/config.json`, through a real start: made fresh when there is
 * none, kept (with the simulated providers' new URLs) when valid, and never replaced when it cannot be read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { callDaemon, findDaemon } from '../cli/cli-control.js';
import type { ConfigInput } from '../config/schema.js';
import { ConfigError, startRouter } from '../daemon/start-router.js';
import type { RouterHandle } from '../public-types.js';
import { httpRequest } from '../test-support/http-client.js';

async function withDir(run: (dir: string, demoFile: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-demo-setup-'));
  try {
    await run(dir, path.join(dir, 'demo', 'config.json'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const startDemo = (stateDir: string, env: Record<string, string> = {}): Promise<RouterHandle> =>
  startRouter({ port: 0, stateDir, demo: true, demoTraffic: false, probeTickMs: 0, env });

/** The start's error, or a failure (the router stopped) when it started. */
async function startError(stateDir: string): Promise<unknown> {
  return startDemo(stateDir).then(
    async (router) => {
      await router.stop();
      assert.fail('the demo started');
    },
    (error: unknown) => error,
  );
}

/** Saves a key through the running daemon, as `set-key` and the dashboard do. */
async function saveKey(stateDir: string, provider: string, apiKey: string): Promise<void> {
  const daemon = await findDaemon(stateDir);
  assert.ok(daemon);
  const answer = await callDaemon(daemon, 'POST', '/api/providers/key', { provider, apiKey });
  assert.equal(answer.message, null);
}

test('a demo config.json that is not valid stops the demo, naming the file and the problem, and stays as it is', async () => {
  const broken = [
    ['{ "sets": { "mine": ["demo-fast/coder"] }, }\n', /\(root\): invalid JSON at line 1/],
    ['{ "activeSet": "mine", "retryForever": true }\n', /retryForever: unknown key/],
  ] as const;
  for (const [text, problem] of broken) {
    await withDir(async (dir, demoFile) => {
      await mkdir(path.dirname(demoFile), { recursive: true });
      await writeFile(demoFile, text);
      const error = await startError(dir);
      assert.ok(error instanceof ConfigError, String(error));
      assert.equal(error.file, demoFile);
      assert.match(error.message, problem);
      assert.equal(await readFile(demoFile, 'utf8'), text, 'left as it was');
      assert.ok(!(await readdir(dir)).includes('daemon.lock'), 'the folder is free again');
    });
  }
});

test('a fresh folder starts the demo set; a save writes demo/config.json and never config.json', async () => {
  await withDir(async (dir, demoFile) => {
    const router = await startDemo(dir);
    try {
      assert.equal(router.configPath, demoFile);
      assert.equal(router.state().activeSet, 'demo');
      await saveKey(dir, 'demo-fast', 'sk-demo-2');
      const saved = JSON.parse(await readFile(demoFile, 'utf8')) as ConfigInput;
      assert.equal(saved.providers?.['demo-fast']?.apiKey, 'sk-demo-2');
      assert.equal(saved.activeSet, 'demo');
    } finally {
      await router.stop();
    }
    assert.ok(!(await readdir(dir)).includes('config.json'), 'the real config is not made');
  });
});

test('the demo routes its simulated providers alone: no keyless provider, none enabled by a key in the environment', async () => {
  await withDir(async (dir) => {
    const router = await startDemo(dir, { GROQ_API_KEY: 'gsk-from-the-environment' });
    try {
      const models = router.state().models.map((model) => model.key);
      assert.ok(models.length > 0);
      assert.deepEqual(
        models.filter((key) => !key.startsWith('demo-')),
        [],
        'only the simulated models',
      );
      const listed = JSON.parse((await httpRequest(`${router.url}/v1/models`)).text) as {
        data: { id: string }[];
      };
      assert.deepEqual(
        listed.data.map((model) => model.id).filter((id) => id.includes('/') && !id.includes('demo-')),
        [],
      );
      // A real model named outright is not known here: nothing is sent to its provider.
      const pinned = await httpRequest(`${router.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'fcm:@llm7/codestral-latest',
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
      assert.equal(pinned.status, 404, pinned.text);
    } finally {
      await router.stop();
    }
  });
});

test('a valid demo config keeps its sets and takes the simulated providers as they run now', async () => {
  await withDir(async (dir, demoFile) => {
    await mkdir(path.dirname(demoFile), { recursive: true });
    const mine: ConfigInput = {
      providers: {
        'demo-fast': { baseUrl: 'http://127.0.0.1:9/demo-fast/v1', apiKey: 'demo-key', models: ['coder'] },
      },
      sets: { mine: ['demo-fast/coder'] },
      activeSet: 'mine',
    };
    await writeFile(demoFile, JSON.stringify(mine));
    const router = await startDemo(dir);
    try {
      assert.equal(router.state().activeSet, 'mine');
      await saveKey(dir, 'demo-fast', 'sk-demo-2');
      const saved = JSON.parse(await readFile(demoFile, 'utf8')) as ConfigInput;
      assert.deepEqual(saved.sets, mine.sets);
      assert.equal(saved.activeSet, 'mine');
      assert.doesNotMatch(saved.providers?.['demo-fast']?.baseUrl ?? '', /:9\//, 'the URL is refreshed');
      assert.ok(saved.providers?.['demo-slow'], 'every simulated provider is there');
    } finally {
      await router.stop();
    }
  });
});
