/**
 * The config watcher on a `config.json` that is a symlink (into a dotfiles folder): an edit saved at the
 * link's target is noticed, and so is one at a new target once the link is pointed elsewhere. Real files
 * and the real watcher; the settle time passes on a test clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ioTurns } from '../test-support/deferred.js';
import { withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';
import { CONFIG_WATCH_DEBOUNCE_MS, watchConfigFile } from './config-watch.js';

/** Saves `file` as editors do: a temp file beside it renamed over it. */
async function saveByRename(file: string, text: string): Promise<void> {
  await writeFile(`${file}.edit`, text);
  await rename(`${file}.edit`, file);
}

/**
 * Lets the watcher read the events of what was just done (the kernel queued them as it was done), then lets
 * the settle time pass on the clock; again a few times, so a busy machine's late read is still taken.
 */
async function settle(clock: TestClock, seen: () => number, expected: number): Promise<void> {
  for (let round = 0; round < 10 && seen() < expected; round += 1) {
    await ioTurns();
    clock.advance(CONFIG_WATCH_DEBOUNCE_MS);
  }
}

/** A state folder whose `config.json` links to `dotfiles/<name>`. */
async function linkedConfig(root: string, name: string): Promise<{ file: string; target: string }> {
  await mkdir(path.join(root, 'state'), { recursive: true });
  await mkdir(path.join(root, 'dotfiles'), { recursive: true });
  const target = path.join(root, 'dotfiles', name);
  const file = path.join(root, 'state', 'config.json');
  await writeFile(target, '{}\n');
  await symlink(target, file);
  return { file, target };
}

test(
  "an edit saved at a symlinked config.json's target is noticed",
  { skip: process.platform === 'win32' },
  async () => {
    await withDir(async (root) => {
      const { file, target } = await linkedConfig(root, 'fcm.json');
      const clock = new TestClock();
      let changes = 0;
      const watch = watchConfigFile({ file, time: clock, onChange: () => changes++, onError: assert.fail });
      try {
        await saveByRename(target, '{ "activeSet": "default" }\n');
        await settle(clock, () => changes, 1);
        assert.equal(changes, 1, 'the edit of the target is noticed');
      } finally {
        watch.close();
      }
    }, 'fcm-watch-');
  },
);

test(
  'a link pointed at another file: edits of the new target are noticed, of the old one not',
  { skip: process.platform === 'win32' },
  async () => {
    await withDir(async (root) => {
      const { file, target: old } = await linkedConfig(root, 'fcm.json');
      const elsewhere = path.join(root, 'elsewhere');
      await mkdir(elsewhere);
      const next = path.join(elsewhere, 'work.json');
      await writeFile(next, '{}\n');
      const clock = new TestClock();
      let changes = 0;
      const watch = watchConfigFile({ file, time: clock, onChange: () => changes++, onError: assert.fail });
      try {
        await symlink(next, `${file}.new`);
        await rename(`${file}.new`, file);
        await settle(clock, () => changes, 1);
        assert.equal(changes, 1, 'the link pointed elsewhere is a change');

        await saveByRename(next, '{ "activeSet": "work" }\n');
        await settle(clock, () => changes, 2);
        assert.equal(changes, 2, 'the new target is watched');

        await saveByRename(old, '{ "activeSet": "home" }\n');
        await ioTurns();
        clock.advance(CONFIG_WATCH_DEBOUNCE_MS);
        assert.equal(changes, 2, 'the old target is not the config any more');
      } finally {
        watch.close();
      }
    }, 'fcm-watch-');
  },
);
