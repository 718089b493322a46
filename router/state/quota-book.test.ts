import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RouterLogger } from '../public-types.js';
import { keyFingerprint } from './key-fingerprint.js';
import { QuotaBook, type QuotaScope } from './quota-book.js';
import { withDir } from '../test-support/state-test-helpers.js';

const T0 = 1_700_000_000_000;
const silent: RouterLogger = { info: () => {}, warn: () => {}, error: () => {} };

function makeBook(file: string) {
  const time = { now: T0 };
  const changes: QuotaScope[] = [];
  const book = new QuotaBook({
    file,
    clock: () => time.now,
    debounceMs: 60_000,
    logger: silent,
    onChange: (scope) => changes.push(scope),
  });
  return { book, time, changes };
}

test('a model pause ends at its deadline', async () => {
  await withDir(async (dir) => {
    const { book, time, changes } = makeBook(join(dir, 'quota.json'));
    assert.equal(book.pausedUntil('groq/a', 'groq'), null);
    book.pauseModel('groq/a', 60_000, false);
    assert.equal(book.pausedUntil('groq/a', 'groq'), T0 + 60_000);
    assert.equal(book.pausedUntil('groq/b', 'groq'), null, 'a model pause does not touch its siblings');
    assert.deepEqual(changes, [{ model: 'groq/a' }]);
    time.now = T0 + 59_999;
    assert.equal(book.pausedUntil('groq/a', 'groq'), T0 + 60_000);
    time.now = T0 + 60_000;
    assert.equal(book.pausedUntil('groq/a', 'groq'), null);
    await book.close();
  });
});

test('a provider pause covers all its models; the later of model and provider wins', async () => {
  await withDir(async (dir) => {
    const { book, time } = makeBook(join(dir, 'quota.json'));
    book.pauseProvider('openrouter', 120_000, 'rate_limit', true);
    assert.equal(book.pausedUntil('openrouter/x', 'openrouter'), T0 + 120_000);
    assert.equal(book.pausedUntil('openrouter/y', 'openrouter'), T0 + 120_000);
    assert.equal(book.pausedUntil('groq/x', 'groq'), null);
    assert.deepEqual(book.pauseInfo('openrouter/x', 'openrouter'), {
      until: T0 + 120_000,
      authoritative: true,
      scope: 'provider',
    });

    book.pauseModel('openrouter/x', 300_000, false);
    assert.equal(book.pausedUntil('openrouter/x', 'openrouter'), T0 + 300_000);
    assert.equal(book.pauseInfo('openrouter/x', 'openrouter')?.scope, 'model');
    time.now = T0 + 150_000;
    assert.equal(book.pausedUntil('openrouter/y', 'openrouter'), null);
    await book.close();
  });
});

test('a shorter pause does not cut a longer one short; zero or negative lengths are ignored', async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    book.pauseModel('a/m', 300_000, true);
    book.pauseModel('a/m', 60_000, false);
    book.pauseModel('a/m', 0, false);
    book.pauseModel('a/m', -5, false);
    assert.deepEqual(book.pauseInfo('a/m', 'a'), {
      until: T0 + 300_000,
      authoritative: true,
      scope: 'model',
    });
    assert.equal(changes.length, 1);
    await book.close();
  });
});

test('a success clears the model pause, a rate-limit pause and the auth block', async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    const fp = keyFingerprint('sk-one');
    book.pauseModel('p/a', 60_000, true);
    book.pauseModel('p/b', 60_000, true);
    book.pauseProvider('p', 60_000, 'rate_limit', true);
    book.blockAuth('p', fp);
    changes.length = 0;
    book.clearOnSuccess('p/a', 'p');
    assert.equal(book.pausedUntil('p/a', 'p'), null);
    assert.equal(book.pausedUntil('p/b', 'p'), T0 + 60_000, "a sibling's own pause stays");
    assert.equal(book.isAuthBlocked('p', fp), false);
    assert.deepEqual(changes, [{ model: 'p/a', provider: 'p' }]);
    await book.close();
  });
});

test('a success keeps an authoritative payment pause but clears a heuristic one', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'quota.json'));
    book.pauseProvider('paid', 600_000, 'payment_required', true);
    book.pauseProvider('guess', 600_000, 'payment_required', false);
    book.clearOnSuccess('paid/m', 'paid');
    book.clearOnSuccess('guess/m', 'guess');
    assert.equal(book.pausedUntil('paid/m', 'paid'), T0 + 600_000);
    assert.equal(book.pausedUntil('guess/m', 'guess'), null);
    await book.close();
  });
});

test('clearModel lifts a manual pause of one model only', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'quota.json'));
    book.pauseModel('p/a', 60_000, true);
    book.pauseProvider('p', 30_000, 'rate_limit', true);
    book.clearModel('p/a');
    assert.equal(book.pausedUntil('p/a', 'p'), T0 + 30_000);
    await book.close();
  });
});

test('an auth block holds for the same key and is lifted by a new key or clearAuth', async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    const oldKey = keyFingerprint('sk-old');
    const newKey = keyFingerprint('sk-new');
    book.blockAuth('groq', oldKey);
    assert.equal(book.isAuthBlocked('groq', oldKey), true);
    assert.equal(book.isAuthBlocked('cerebras', oldKey), false);
    changes.length = 0;
    assert.equal(book.isAuthBlocked('groq', newKey), false);
    assert.deepEqual(changes, [{ provider: 'groq' }]);
    assert.equal(book.isAuthBlocked('groq', oldKey), false, 'the block is gone, not just hidden');

    book.blockAuth('groq', newKey);
    book.clearAuth('groq');
    assert.equal(book.isAuthBlocked('groq', newKey), false);
    await book.close();
  });
});

test('pauses and auth blocks survive a restart; expired pauses do not', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'quota.json');
    const a = makeBook(file);
    const fp = keyFingerprint('sk-live');
    a.book.pauseModel('p/short', 10_000, false);
    a.book.pauseModel('p/long', 600_000, true);
    a.book.pauseProvider('or', 300_000, 'rate_limit', true);
    a.book.blockAuth('groq', fp);
    await a.book.close();
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    const b = makeBook(file);
    b.time.now = T0 + 60_000;
    await b.book.load();
    assert.equal(b.book.pausedUntil('p/short', 'p'), null);
    assert.deepEqual(b.book.pauseInfo('p/long', 'p'), {
      until: T0 + 600_000,
      authoritative: true,
      scope: 'model',
    });
    assert.equal(b.book.pausedUntil('or/any', 'or'), T0 + 300_000);
    assert.equal(b.book.isAuthBlocked('groq', fp), true);
    b.book.pauseModel('p/other', 1000, false);
    await b.book.close();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { models: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(saved.models).sort(),
      ['p/long', 'p/other'],
      'expired pauses are not rewritten',
    );
  });
});

test('privacy: the state file holds key fingerprints, never keys', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'quota.json');
    const { book } = makeBook(file);
    const secret = 'sk-or-v1-0123456789abcdef0123456789abcdef';
    book.blockAuth('openrouter', keyFingerprint(secret));
    // A caller that passes the key by mistake still only gets a fingerprint on disk.
    book.blockAuth('groq', 'gsk_thisIsARawKeyThatMustNotBeStored');
    assert.equal(book.isAuthBlocked('groq', keyFingerprint('gsk_thisIsARawKeyThatMustNotBeStored')), true);
    await book.close();
    const text = await readFile(file, 'utf8');
    assert.equal(text.includes(secret), false);
    assert.equal(text.includes('thisIsARawKey'), false);
    assert.equal(text.includes(keyFingerprint(secret)), true);
  });
});
