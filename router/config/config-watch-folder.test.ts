/**
 * The config watcher when `config.json`'s folder is not there for a while: removed and made again (at once,
 * or later), or missing when the watch starts. Edits saved in the new folder are noticed, and a folder that
 * cannot be watched is reported and tried again. Real files and the real watcher; the settle and retry
 * times pass on a test clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ioTurns } from '../test-support/deferred.js';
import { withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';
import { CONFIG_WATCH_DEBOUNCE_MS, watchConfigFile, type ConfigWatch } from './config-watch.js';

const RETRY_MS = 1_000;

/** Saves `file` as editors do: a temp file beside it renamed over it. */
async function saveByRename(file: string, text: string): Promise<void> {
  await writeFile(`${file}.edit`, text);
  await rename(`${file}.edit`, file);
}

/**
 * Lets the watcher read the events of what was just done, then moves the clock `stepMs`, until `done`; a
 * bounded number of rounds, so a watch that never sees it fails rather than hangs.
 */
async function until(clock: TestClock, done: () => boolean, stepMs: number, what: string): Promise<void> {
  for (let round = 0; round < 20 && !done(); round += 1) {
    await ioTurns();
    clock.advance(stepMs);
  }
  assert.ok(done(), `${what} never happened`);
}

/** A watch on `file` that records what each look found there, what it reported, and each return. */
function watching(file: string, clock: TestClock) {
  const seen: (string | null)[] = [];
  const errors: string[] = [];
  let back = 0;
  const look = (): void => {
    try {
      seen.push(readFileSync(file, 'utf8'));
    } catch {
      seen.push(null);
    }
  };
  const watch: ConfigWatch = watchConfigFile({
    file,
    time: clock,
    retryMs: RETRY_MS,
    onChange: look,
    onError: (message) => errors.push(message),
    onWatching: () => (back += 1),
  });
  return { watch, seen, errors, backs: () => back };
}

/** Saves `text` and waits for a look to find it, moving the clock by the settle time only. */
async function savedAndSeen(clock: TestClock, file: string, seen: (string | null)[], text: string) {
  await saveByRename(file, text);
  await until(clock, () => seen.includes(text), CONFIG_WATCH_DEBOUNCE_MS, `a look finding ${text.trim()}`);
}

const POSIX = { skip: process.platform === 'win32' };

test(
  'a folder removed and made again at once: edits saved in the new folder are noticed',
  POSIX,
  async () => {
    await withDir(async (root) => {
      const folder = path.join(root, 'cfg');
      const file = path.join(folder, 'config.json');
      await mkdir(folder);
      await writeFile(file, '{}\n');
      const clock = new TestClock();
      const { watch, seen, errors } = watching(file, clock);
      try {
        // Both before the watcher reads a single event: the new folder is there when it learns of the old.
        rmSync(folder, { recursive: true });
        mkdirSync(folder);
        await savedAndSeen(clock, file, seen, '{ "activeSet": "first" }\n');
        await savedAndSeen(clock, file, seen, '{ "activeSet": "second" }\n');
        assert.deepEqual(errors, [], 'the new folder was watched at once');
      } finally {
        watch.close();
      }
    }, 'fcm-watch-');
  },
);

test('a folder removed and made again later: reported once, tried again, then watched', POSIX, async () => {
  await withDir(async (root) => {
    const folder = path.join(root, 'cfg');
    const file = path.join(folder, 'config.json');
    await mkdir(folder);
    await writeFile(file, '{}\n');
    const clock = new TestClock();
    const { watch, seen, errors, backs } = watching(file, clock);
    try {
      await rm(folder, { recursive: true });
      await until(clock, () => errors.length > 0, CONFIG_WATCH_DEBOUNCE_MS, 'a report of the lost folder');
      clock.advance(3 * RETRY_MS);
      assert.deepEqual(errors, ['ENOENT'], 'said once while the folder is missing');
      assert.equal(backs(), 0);

      const unwatched = '{ "activeSet": "made while unwatched" }\n';
      await mkdir(folder);
      await writeFile(file, unwatched);
      clock.advance(RETRY_MS);
      assert.equal(backs(), 1, 'watched again once the folder is back');
      await until(clock, () => seen.includes(unwatched), CONFIG_WATCH_DEBOUNCE_MS, 'a look at the new file');
      await savedAndSeen(clock, file, seen, '{ "activeSet": "watched" }\n');
      assert.equal(errors.length, 1);
    } finally {
      watch.close();
    }
  }, 'fcm-watch-');
});

test('a folder missing at first is watched once it is made', POSIX, async () => {
  await withDir(async (root) => {
    const folder = path.join(root, 'cfg');
    const file = path.join(folder, 'config.json');
    const clock = new TestClock();
    const { watch, seen, errors, backs } = watching(file, clock);
    try {
      assert.deepEqual(errors, ['ENOENT'], 'the missing folder is reported at the start');
      await mkdir(folder);
      clock.advance(RETRY_MS);
      assert.equal(backs(), 1);
      await savedAndSeen(clock, file, seen, '{ "activeSet": "first save" }\n');
      assert.equal(errors.length, 1);
    } finally {
      watch.close();
    }
  }, 'fcm-watch-');
});
