/**
 * `setup` on an agent's file that is a symlink (into a dotfiles folder) whose target is not there yet: the
 * target is written and the link kept, and `--undo` removes the target setup created, leaving the link as
 * it was; a link into a folder that does not exist is refused, nothing changed. Real files on a throwaway
 * HOME, through `runSetup`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, readdir, readFile, readlink, realpath, symlink } from 'node:fs/promises';
import path from 'node:path';
import { options, withHome } from '../test-support/setup-home.js';
import { runSetup } from './setup-command.js';

const LINK = '../dotfiles/claude/settings.json';

/** `~/.claude/settings.json`, a link to `~/dotfiles/claude/settings.json`, which does not exist. */
async function danglingLink(home: string): Promise<{ file: string; target: string }> {
  const file = path.join(home, '.claude', 'settings.json');
  await mkdir(path.dirname(file));
  await symlink(LINK, file);
  return { file, target: path.join(home, 'dotfiles', 'claude', 'settings.json') };
}

const missing = (file: string): Promise<boolean> =>
  access(file).then(
    () => false,
    () => true,
  );

test('claude-code: setup writes the target of a link not there yet, and undo removes it, the link kept', async () => {
  await withHome(async (home) => {
    const { file, target } = await danglingLink(home);
    await mkdir(path.dirname(target), { recursive: true });
    const setup = options(home, { agent: 'claude-code', yes: true });
    assert.equal(await runSetup(setup), 0, setup.out.join('\n'));
    assert.equal(await readlink(file), LINK, 'the link is as it was');
    assert.match(await readFile(target, 'utf8'), /"ANTHROPIC_BASE_URL": "http:\/\/127\.0\.0\.1:1"/);
    assert.deepEqual((await readdir(path.dirname(file))).sort(), [
      'settings.json',
      'settings.json.fcm-router.created',
    ]);

    const undo = options(home, { agent: 'claude-code', undo: true, yes: true });
    assert.equal(await runSetup(undo), 0, undo.out.join('\n'));
    assert.deepEqual(undo.out.at(-1), `${file}: removed.`);
    assert.equal(await readlink(file), LINK, 'the link is still there, as it was');
    assert.ok(await missing(target), 'the file setup created is gone');
    assert.deepEqual(await readdir(path.dirname(file)), ['settings.json']);
    assert.deepEqual(await readdir(path.dirname(target)), []);
  });
});

test('claude-code: a link into a folder that does not exist is refused, naming both; nothing is changed', async () => {
  await withHome(async (home) => {
    const { file, target } = await danglingLink(home);
    const setup = options(home, { agent: 'claude-code', yes: true });
    assert.equal(await runSetup(setup), 1);
    // The target as the system finds it (the temp folder may itself be reached through a link).
    const named = path.join(await realpath(home), path.relative(home, target));
    assert.equal(
      setup.out.at(-1),
      `fcm-router: cannot write ${file} (it is a symbolic link to ${named}, and the folder ${path.dirname(named)} does not exist); nothing was changed`,
    );
    assert.equal(await readlink(file), LINK);
    assert.deepEqual(await readdir(path.dirname(file)), ['settings.json']);
    assert.deepEqual(await readdir(home), ['.claude']);
  });
});
