/**
 * `fcm-router set-key` with no daemon writes `config.json` itself: a key it says it saved is in the file,
 * a save it could not finish, or a file it cannot read whole, leaves the file as it was, and a symlinked
 * file is written at its target. Real CLI processes on a throwaway state folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConfigInput } from '../config/schema.js';
import { CliProcess } from '../test-support/cli-process.js';

async function withStateDir(run: (stateDir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-set-key-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function setKey(stateDir: string, provider: string, key: string, fileSizeBlocks?: number): CliProcess {
  return new CliProcess(['set-key', provider, '--state-dir', stateDir], {
    stdin: `${key}\n`,
    env: { HOME: stateDir },
    ...(fileSizeBlocks === undefined ? {} : { fileSizeBlocks }),
  });
}

test(
  'a save the disk cuts short is not reported saved, and config.json stays as it was',
  { skip: process.platform === 'win32' },
  async () => {
    await withStateDir(async (stateDir) => {
      const file = path.join(stateDir, 'config.json');
      const models = Array.from({ length: 400 }, (_, i) => `groq/llama-3.3-70b-versatile-${i}`);
      const config = {
        providers: { groq: { apiKey: 'gsk_mine' } },
        sets: { main: models },
        activeSet: 'main',
      };
      const before = `${JSON.stringify(config, null, 2)}\n`;
      await writeFile(file, before, { mode: 0o600 });
      // A few kilobytes left on the disk: the new config.json does not fit.
      const cli = setKey(stateDir, 'cerebras', 'csk_new', 8);
      const code = await cli.exited;
      assert.equal(code, 1, cli.output());
      assert.match(cli.output(), /cannot write .*config\.json \((EFBIG|ENOSPC): [^)]*\); nothing saved/);
      assert.doesNotMatch(cli.output(), /\n\s+at /, 'no stack trace');
      assert.ok(!cli.output().includes('csk_new'), 'the key is not echoed');
      assert.equal(await readFile(file, 'utf8'), before, 'the config is whole');
      assert.deepEqual(await readdir(stateDir), ['config.json'], 'no temp file is left');
    });
  },
);

test('three set-key at once: every key reported saved is in the file', async () => {
  await withStateDir(async (stateDir) => {
    const file = path.join(stateDir, 'config.json');
    await writeFile(file, '{}\n', { mode: 0o600 });
    const providers = ['groq', 'cerebras', 'openrouter'];
    const runs = providers.map((provider) => ({
      provider,
      cli: setKey(stateDir, provider, `key_${provider}_1`),
    }));
    const codes = await Promise.all(runs.map(({ cli }) => cli.exited));
    const saved = JSON.parse(await readFile(file, 'utf8')) as ConfigInput;
    runs.forEach(({ provider, cli }, index) => {
      if (codes[index] === 0)
        assert.equal(
          saved.providers?.[provider]?.apiKey,
          `key_${provider}_1`,
          `${provider}: ${cli.output()}`,
        );
      else assert.match(cli.output(), /changed while saving; nothing saved\. Run set-key again\./);
    });
    assert.ok(codes.includes(0), 'one of them saved');
  });
});

test('a config.json with a name written twice is refused, naming where, and left byte for byte', async () => {
  await withStateDir(async (stateDir) => {
    const file = path.join(stateDir, 'config.json');
    const text =
      '{"providers":{"groq":{"apiKey":"gsk_FIRST","apiKeys":["gsk_FIRST_2"]},"groq":{"enabled":true}}}';
    await writeFile(file, text, { mode: 0o600 });
    const cli = setKey(stateDir, 'cerebras', 'csk_new');
    assert.equal(await cli.exited, 1, cli.output());
    assert.match(
      cli.output(),
      /providers\.groq: written twice in one object, at line 1, column 15 and at line 1, column 71: /,
    );
    assert.match(cli.output(), /Nothing saved\./);
    assert.ok(!/gsk_|csk_/.test(cli.output()), 'no key is quoted');
    assert.equal(await readFile(file, 'utf8'), text);
  });
});

test('a config.json symlinked to a file not there yet is written at the target; the link stays', async () => {
  await withStateDir(async (stateDir) => {
    const file = path.join(stateDir, 'config.json');
    await mkdir(path.join(stateDir, 'dot'));
    await symlink('dot/config.json', file);
    const cli = setKey(stateDir, 'groq', 'gsk_new');
    assert.equal(await cli.exited, 0, cli.output());
    assert.ok((await lstat(file)).isSymbolicLink(), 'the link stays a link');
    const saved = JSON.parse(
      await readFile(path.join(stateDir, 'dot', 'config.json'), 'utf8'),
    ) as ConfigInput;
    assert.equal(saved.providers?.groq?.apiKey, 'gsk_new');
  });
});
