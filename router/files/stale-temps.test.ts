/**
 * A writer killed between writing its temp file and the rename leaves the temp file (a whole copy of the
 * text) beside the file it was replacing; the next successful write of that file removes such leftovers,
 * and nothing else: only its own temp pattern for that file, only plain files, only ones that stopped
 * changing well before it (a younger one may be another process's write under way).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isStaleTemp, isTempFileOf, STALE_TEMP_MS, writeFileAtomically } from './atomic-write.js';

const POSIX = process.platform !== 'win32';
/** A day long gone and one far ahead, as file times: no clock is read. */
const LONG_AGO = new Date('2020-01-01T00:00:00Z');
const FAR_AHEAD = new Date('2100-01-01T00:00:00Z');

/** A writer that dies (SIGKILL) once its text is on disk, before the rename. */
const CRASHING_CHILD = `
import { writeFileAtomically } from ${JSON.stringify(new URL('./atomic-write.ts', import.meta.url).href)};
await writeFileAtomically(process.argv[1], 'crashed write', {
  stillWanted: () => {
    process.kill(process.pid, 'SIGKILL');
    return new Promise(() => undefined);
  },
});`;

function crashWhileWriting(file: string): Promise<NodeJS.Signals | null> {
  const node = ['--import', 'tsx', '--input-type=module', '-e', CRASHING_CHILD, file];
  const child = spawn(process.execPath, node, { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve(signal));
  });
}

test('a temp file is stale once it stopped changing over a minute before the write', () => {
  const written = 10 * STALE_TEMP_MS;
  assert.equal(isStaleTemp(written - STALE_TEMP_MS - 1, written), true);
  assert.equal(isStaleTemp(written - STALE_TEMP_MS, written), false);
  assert.equal(isStaleTemp(written - 5, written), false);
  assert.equal(isStaleTemp(written + 5, written), false);
});

test(
  "crashed writes' temp files are removed by the next write of the same file, and nothing else",
  { skip: !POSIX },
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-stale-'));
    try {
      const file = path.join(dir, 'config.json');
      await writeFile(file, 'old');
      assert.equal(await crashWhileWriting(file), 'SIGKILL');
      assert.equal(await crashWhileWriting(file), 'SIGKILL');
      const crashed = (await readdir(dir)).filter((name) => isTempFileOf(name, 'config.json'));
      assert.equal(crashed.length, 2, 'each crash left its temp file');
      assert.equal(await readFile(file, 'utf8'), 'old', 'the file is whole');
      for (const name of crashed) await utimes(path.join(dir, name), LONG_AGO, LONG_AGO);

      const kept = [
        'config.json.bak',
        'config.json.ABCDEF123456.tmp',
        'config.json.0123456789a.tmp',
        'config.json.0123456789ab.tmp.part',
        'other.json.0123456789ab.tmp',
        'config.json.0123456789ab',
      ];
      for (const name of kept) await writeFile(path.join(dir, name), 'not ours');
      // Named as ours, but a folder; and one of ours still being written by another process.
      await mkdir(path.join(dir, 'config.json.aaaaaaaaaaaa.tmp'));
      await writeFile(path.join(dir, 'config.json.bbbbbbbbbbbb.tmp'), 'under way');
      await utimes(path.join(dir, 'config.json.bbbbbbbbbbbb.tmp'), FAR_AHEAD, FAR_AHEAD);
      for (const name of [...kept, 'config.json.aaaaaaaaaaaa.tmp'])
        await utimes(path.join(dir, name), LONG_AGO, LONG_AGO);

      assert.equal(await writeFileAtomically(file, 'new'), true);
      assert.equal(await readFile(file, 'utf8'), 'new');
      const expected = [
        'config.json',
        ...kept,
        'config.json.aaaaaaaaaaaa.tmp',
        'config.json.bbbbbbbbbbbb.tmp',
      ].sort();
      assert.deepEqual((await readdir(dir)).sort(), expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
