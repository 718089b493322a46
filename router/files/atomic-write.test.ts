/**
 * `writeFileAtomically` on real files in a temp folder: a write the disk cuts short throws and leaves the old
 * file whole (the kernel's short write is real: the child writing runs under a file size limit, which makes
 * write(2) write what fits and say so, as a nearly full disk does); a symlink is followed and stays a link,
 * also one whose target is not there yet;
 * the mode is the one asked for or the old file's; a write no longer wanted leaves the file alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isTempFileOf, writeFileAtomically } from './atomic-write.js';

const POSIX = process.platform !== 'win32';

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-atomic-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const CHILD = `
import { writeFileAtomically } from ${JSON.stringify(new URL('./atomic-write.ts', import.meta.url).href)};
let text = '';
for await (const chunk of process.stdin) text += chunk;
try {
  await writeFileAtomically(process.argv[1], text);
  console.log('written');
} catch (error) {
  console.log('threw ' + (error.code ?? error.message));
}`;

/**
 * Runs the writer on `file` in a child whose files cannot grow past one block (`ulimit -f 1`): what a disk
 * with one block left does to a write. Resolves with what the child printed.
 */
function writeOnFullDisk(file: string, text: string): Promise<string> {
  const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', CHILD, file];
  const child = spawn('/bin/sh', ['-c', 'ulimit -f 1 && exec "$0" "$@"', ...node], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(text);
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(out.trim()));
  });
}

test(
  'a write the disk cuts short throws and leaves the old file whole, with no temp file left',
  { skip: !POSIX },
  async () => {
    await withDir(async (dir) => {
      const file = path.join(dir, 'config.json');
      const before = `${JSON.stringify({ sets: { main: ['groq/a'] } }, null, 2)}\n`;
      await writeFile(file, before);
      const big = `${JSON.stringify({ sets: { main: Array.from({ length: 3000 }, (_, i) => `groq/m-${i}`) } })}\n`;
      const said = await writeOnFullDisk(file, big);
      assert.match(said, /^threw (EFBIG|ENOSPC)/, said);
      assert.equal(await readFile(file, 'utf8'), before, 'the old file is whole');
      assert.deepEqual(await readdir(dir), ['config.json'], 'the temp file is removed');
    });
  },
);

test('a symlinked file is replaced at its target; the link stays a link', async () => {
  await withDir(async (dir) => {
    await mkdir(path.join(dir, 'dotfiles'));
    const target = path.join(dir, 'dotfiles', 'fcm.json');
    const link = path.join(dir, 'config.json');
    await writeFile(target, '{}\n');
    await symlink(target, link);
    assert.equal(await writeFileAtomically(link, '{ "a": 1 }\n', { mode: 0o600 }), true);
    assert.ok((await lstat(link)).isSymbolicLink());
    assert.equal(await readFile(target, 'utf8'), '{ "a": 1 }\n');
    assert.deepEqual(await readdir(path.join(dir, 'dotfiles')), ['fcm.json']);
  });
});

test('a symlink to a file not there yet is written at its target, through a chain of relative links', async () => {
  await withDir(async (dir) => {
    const real = path.join(dir, 'config', 'deep', 'claude');
    await mkdir(real, { recursive: true });
    await mkdir(path.join(dir, 'config', 'dotfiles'));
    await mkdir(path.join(dir, 'home'));
    await symlink('../config/deep/claude', path.join(dir, 'home', '.claude'));
    // Each link is read from the folder it is really in: `../..` of .../deep/claude is config/, not dir/.
    await symlink('../../claude.json', path.join(real, 'settings.json'));
    await symlink('dotfiles/settings.json', path.join(dir, 'config', 'claude.json'));
    assert.equal(await writeFileAtomically(path.join(dir, 'home', '.claude', 'settings.json'), '{}\n'), true);
    assert.equal(
      await readlink(path.join(real, 'settings.json')),
      '../../claude.json',
      'the links are as they were',
    );
    assert.equal(await readlink(path.join(dir, 'config', 'claude.json')), 'dotfiles/settings.json');
    assert.equal(await readFile(path.join(dir, 'config', 'dotfiles', 'settings.json'), 'utf8'), '{}\n');
    assert.deepEqual((await readdir(dir)).sort(), ['config', 'home']);
  });
});

test('a link into a folder that does not exist, or links that go round, are errors naming them; nothing is written', async () => {
  await withDir(async (dir) => {
    const link = path.join(dir, 'config.json');
    const real = await realpath(dir);
    await symlink(path.join(real, 'dot', 'config.json'), link);
    await assert.rejects(writeFileAtomically(link, 'x'), {
      message: `it is a symbolic link to ${path.join(real, 'dot', 'config.json')}, and the folder ${path.join(real, 'dot')} does not exist`,
    });
    const loop = path.join(dir, 'loop');
    await symlink('loop', loop);
    await assert.rejects(writeFileAtomically(loop, 'x'), { code: 'ELOOP' });
    assert.ok((await lstat(link)).isSymbolicLink() && (await lstat(loop)).isSymbolicLink());
    assert.deepEqual((await readdir(dir)).sort(), ['config.json', 'loop']);
  });
});

test(
  'the mode asked for is the mode, whatever the umask; without one the old file keeps its own',
  { skip: !POSIX },
  async () => {
    await withDir(async (dir) => {
      const file = path.join(dir, 'settings.json');
      await writeFileAtomically(file, 'a', { mode: 0o600 });
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      await chmod(file, 0o640);
      await writeFileAtomically(file, 'b');
      assert.equal((await stat(file)).mode & 0o777, 0o640);
      assert.equal(await readFile(file, 'utf8'), 'b');
    });
  },
);

test('a write no longer wanted just before the rename leaves the file as it was', async () => {
  await withDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    await writeFile(file, 'old');
    let asked = 0;
    const stillWanted = async (): Promise<boolean> => {
      asked += 1;
      const names = await readdir(dir);
      assert.ok(
        names.some((name) => isTempFileOf(name, 'config.json')),
        'the new text is on disk by then',
      );
      return false;
    };
    assert.equal(await writeFileAtomically(file, 'new', { stillWanted }), false);
    assert.equal(asked, 1);
    assert.equal(await readFile(file, 'utf8'), 'old');
    assert.deepEqual(await readdir(dir), ['config.json']);
  });
});
