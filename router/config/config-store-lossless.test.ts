/**
 * What the config store must not read past, since the next save would lose part of it: a name written
 * twice in an object (JSON.parse keeps only the last) and bytes that are not UTF-8 (read as U+FFFD) make
 * the file invalid, named by where; and a `config.json` symlinked to a file not there yet is written at
 * that target, the link kept. Real files in a temp folder, through the store's own functions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  fileRevision,
  loadConfigFile,
  NO_FILE_REVISION,
  textRevision,
  writeConfigGuarded,
} from './config-store.js';
import { withDir } from '../test-support/state-test-helpers.js';

const withTempDir = (run: (dir: string) => Promise<void>): Promise<void> =>
  withDir(run, 'fcm-config-lossless-');

/** The issues `loadConfigFile` finds in a file holding `content`. */
async function issuesOf(
  file: string,
  content: string | Buffer,
): Promise<{ path: string; message: string }[]> {
  await writeFile(file, content);
  const loaded = await loadConfigFile(file);
  assert.ok(!loaded.ok, 'the file is invalid');
  return loaded.issues;
}

test('a name written twice in an object makes the file invalid, at its path, with both places', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    const twice =
      '{\n  "providers": {\n    "groq": { "apiKey": "gsk_FIRST" },\n    "groq": { "enabled": true }\n  }\n}\n';
    const [groq, ...more] = await issuesOf(file, twice);
    assert.deepEqual(more, []);
    assert.equal(groq?.path, 'providers.groq');
    assert.match(
      groq?.message ?? '',
      /^written twice in one object, at line 3, column 5 and at line 4, column 5: /,
    );
    assert.ok(!JSON.stringify(groq).includes('gsk_'), 'no key is quoted');

    const deeper =
      '\uFEFF{"router": {}, "providers": {"groq": {"headers": {"X-A": "1", "X-A": "2"}}}, "router": {}}';
    assert.deepEqual(
      (await issuesOf(file, deeper)).map((issue) => issue.path),
      ['providers.groq.headers.X-A', 'router'],
    );
    // A name not fit to be shown (a header line pasted, key and all) is a placeholder, as in every issue.
    const pasted =
      '{"providers": {"groq": {"headers": {"Authorization: Bearer sk-canary-1": "", "Authorization: Bearer sk-canary-1": ""}}}}';
    const [bad] = await issuesOf(file, pasted);
    assert.equal(bad?.path, 'providers.groq.headers.<invalid name #1>');
    assert.ok(!JSON.stringify(bad).includes('canary'));
    assert.equal(await readFile(file, 'utf8'), pasted, 'loading never writes');
  });
});

test('bytes that are not UTF-8 make the file invalid, named by line, column and byte; its revision is its bytes', async () => {
  await withTempDir(async (dir) => {
    const file = path.join(dir, 'config.json');
    const latin1 = (byte: number): Buffer =>
      Buffer.concat([
        Buffer.from('{\n  "providers": {"groq": {"name": "Caf'),
        Buffer.from([byte]),
        Buffer.from(' Groq"}}}\n'),
      ]);
    const [issue, ...more] = await issuesOf(file, latin1(0xe9));
    assert.deepEqual(more, []);
    assert.equal(issue?.path, '(root)');
    assert.match(issue?.message ?? '', /^not UTF-8 text: the byte at line 2, column 38 \(byte offset 39\) /);

    const before = await fileRevision(file);
    assert.equal((await loadConfigFile(file)).revision, before);
    // Another byte as bad is another revision: a save based on the first is refused.
    await writeFile(file, latin1(0xe8));
    const after = await fileRevision(file);
    assert.notEqual(after, before);
    assert.deepEqual(await writeConfigGuarded(file, {}, before), { ok: false, onDisk: after });
    assert.deepEqual(await readFile(file), latin1(0xe8));

    // A UTF-8 file's revision is its text's, as before.
    await writeFile(file, '{"activeSet": "é"}');
    assert.equal(await fileRevision(file), textRevision('{"activeSet": "é"}'));
  });
});

test('a config.json symlinked to a file not there yet is written at the target, in a folder made for it; the link stays', async () => {
  await withTempDir(async (dir) => {
    const state = path.join(dir, 'state');
    await mkdir(state);
    const file = path.join(state, 'config.json');
    // A chain: config.json -> ../dotfiles/fcm.json -> fcm/config.json, both relative to their own folders.
    await mkdir(path.join(dir, 'dotfiles'));
    await symlink('../dotfiles/fcm.json', file);
    await symlink('fcm/config.json', path.join(dir, 'dotfiles', 'fcm.json'));
    const target = path.join(dir, 'dotfiles', 'fcm', 'config.json');

    const missing = await loadConfigFile(file);
    assert.equal(missing.revision, NO_FILE_REVISION);
    const written = await writeConfigGuarded(file, { activeSet: 'a' }, missing.revision);
    assert.ok(written.ok);
    assert.equal(await readlink(file), '../dotfiles/fcm.json', 'the link is as it was');
    assert.equal(await readlink(path.join(dir, 'dotfiles', 'fcm.json')), 'fcm/config.json');
    assert.deepEqual(JSON.parse(await readFile(target, 'utf8')), { activeSet: 'a' });
    assert.equal(written.revision, (await loadConfigFile(file)).revision);
    assert.deepEqual(await readdir(path.dirname(target)), ['config.json'], 'no lock or temp file left');
    if (process.platform !== 'win32') assert.equal((await stat(path.dirname(target))).mode & 0o777, 0o700);
    assert.ok((await writeConfigGuarded(file, { activeSet: 'b' }, written.revision)).ok);
    assert.ok((await lstat(file)).isSymbolicLink());
    assert.deepEqual(JSON.parse(await readFile(target, 'utf8')), { activeSet: 'b' });

    // Links that go round are refused, and stay links.
    const loop = path.join(state, 'loop.json');
    await symlink('loop2.json', loop);
    await symlink('loop.json', path.join(state, 'loop2.json'));
    await assert.rejects(writeConfigGuarded(loop, {}, NO_FILE_REVISION), { code: 'ELOOP' });
    assert.ok((await lstat(loop)).isSymbolicLink());
    assert.deepEqual((await readdir(state)).sort(), ['config.json', 'loop.json', 'loop2.json']);
  });
});
