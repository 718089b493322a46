import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RouterLogger } from '../public-types.js';
import { keyFingerprint } from './key-fingerprint.js';
import { STATE_FILE_VERSION } from './state-book.js';
import { PAYMENT_PAUSE_MS, QUOTA_PAUSE_MAX_MS } from '../gate/failure-classifier.js';
import { LONGEST_PAUSE_MS, QuotaBook, type QuotaScope } from './quota-book.js';
import { withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

const T0 = 1_700_000_000_000;
/** The one key most tests pause. */
const K = keyFingerprint('sk-one');
const silent: RouterLogger = { info: () => {}, warn: () => {}, error: () => {} };

function makeBook(file: string) {
  const time = new TestClock(T0);
  const changes: QuotaScope[] = [];
  const book = new QuotaBook({
    file,
    time,
    debounceMs: 60_000,
    logger: silent,
    onChange: (scope) => changes.push(scope),
  });
  return { book, time, changes };
}

test('a model pause ends at its deadline', async () => {
  await withDir(async (dir) => {
    const { book, time, changes } = makeBook(join(dir, 'quota.json'));
    assert.equal(book.pausedUntil('groq/a', 'groq', K), null);
    book.pauseModel('groq/a', K, 60_000, false);
    assert.equal(book.pausedUntil('groq/a', 'groq', K), T0 + 60_000);
    assert.equal(book.pausedUntil('groq/b', 'groq', K), null, 'a model pause does not touch its siblings');
    assert.deepEqual(changes, [{ model: 'groq/a' }]);
    time.set(T0 + 59_999);
    assert.equal(book.pausedUntil('groq/a', 'groq', K), T0 + 60_000);
    time.set(T0 + 60_000);
    assert.equal(book.pausedUntil('groq/a', 'groq', K), null);
    await book.close();
  });
});

test('a provider pause covers all its models; the later of model and provider wins', async () => {
  await withDir(async (dir) => {
    const { book, time } = makeBook(join(dir, 'quota.json'));
    book.pauseProvider('openrouter', K, 120_000, 'rate_limit', true);
    assert.equal(book.pausedUntil('openrouter/x', 'openrouter', K), T0 + 120_000);
    assert.equal(book.pausedUntil('openrouter/y', 'openrouter', K), T0 + 120_000);
    assert.equal(book.pausedUntil('groq/x', 'groq', K), null);
    assert.deepEqual(book.pauseInfo('openrouter/x', 'openrouter', K), {
      until: T0 + 120_000,
      authoritative: true,
      scope: 'provider',
      reason: 'rate_limit',
      repeat: 1,
    });

    book.pauseModel('openrouter/x', K, 300_000, false);
    assert.equal(book.pausedUntil('openrouter/x', 'openrouter', K), T0 + 300_000);
    assert.equal(book.pauseInfo('openrouter/x', 'openrouter', K)?.scope, 'model');
    book.pauseProvider('credit', K, 600_000, 'payment_required', true);
    assert.equal(book.pauseInfo('credit/x', 'credit', K)?.reason, 'payment_required');
    time.set(T0 + 150_000);
    assert.equal(book.pausedUntil('openrouter/y', 'openrouter', K), null);
    await book.close();
  });
});

test('a shorter pause does not cut a longer one short; zero or negative lengths are ignored', async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    book.pauseModel('a/m', K, 300_000, true);
    book.pauseModel('a/m', K, 60_000, false);
    book.pauseModel('a/m', K, 0, false);
    book.pauseModel('a/m', K, -5, false);
    assert.deepEqual(book.pauseInfo('a/m', 'a', K), {
      until: T0 + 300_000,
      authoritative: true,
      scope: 'model',
      reason: 'rate_limit',
      repeat: 1,
    });
    assert.equal(changes.length, 1);
    await book.close();
  });
});

test('a success clears the model pause, a rate-limit pause and the auth block', async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    const fp = K;
    book.pauseModel('p/a', K, 60_000, true);
    book.pauseModel('p/b', K, 60_000, true);
    book.pauseProvider('p', K, 60_000, 'rate_limit', true);
    book.blockAuth('p', fp);
    changes.length = 0;
    book.clearOnSuccess('p/a', 'p', K);
    assert.equal(book.pausedUntil('p/a', 'p', K), null);
    assert.equal(book.pausedUntil('p/b', 'p', K), T0 + 60_000, "a sibling's own pause stays");
    assert.equal(book.isAuthBlocked('p', fp), false);
    assert.deepEqual(changes, [{ model: 'p/a', provider: 'p' }]);
    await book.close();
  });
});

test("a success on one provider of an account clears the account's rate-limit pause, and its own auth block", async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    // Mistral's 429 paused the key for the account; Codestral's own key block is its provider's.
    book.pauseProvider('mistral', K, 60_000, 'rate_limit', true);
    book.blockAuth('codestral', K);
    changes.length = 0;
    book.clearOnSuccess('codestral/c', 'codestral', K, 'mistral');
    assert.equal(book.keyPausedUntil('mistral', K), null);
    assert.equal(book.isAuthBlocked('codestral', K), false);
    assert.deepEqual(changes, [{ provider: 'mistral' }]);
    await book.close();
  });
});

test('a success keeps an authoritative payment pause but clears a heuristic one', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'quota.json'));
    book.pauseProvider('paid', K, 600_000, 'payment_required', true);
    book.pauseProvider('guess', K, 600_000, 'payment_required', false);
    book.clearOnSuccess('paid/m', 'paid', K);
    book.clearOnSuccess('guess/m', 'guess', K);
    assert.equal(book.pausedUntil('paid/m', 'paid', K), T0 + 600_000);
    assert.equal(book.pausedUntil('guess/m', 'guess', K), null);
    await book.close();
  });
});

test('clearModel lifts a manual pause of one model only', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'quota.json'));
    book.pauseModel('p/a', K, 60_000, true);
    book.pauseProvider('p', K, 30_000, 'rate_limit', true);
    book.clearModel('p/a');
    assert.equal(book.pausedUntil('p/a', 'p', K), T0 + 30_000);
    await book.close();
  });
});

test('clearModel with its account also lifts the key-wide rate limits that hold it, never a 402', async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    const other = keyFingerprint('sk-two');
    book.pauseProvider('p', K, 30_000, 'rate_limit', true);
    book.pauseProvider('p', other, 30_000, 'rate_limit', false);
    book.pauseProvider('q', K, 30_000, 'rate_limit', true);
    changes.length = 0;
    assert.equal(book.clearModel('p/a', 'p'), true);
    assert.equal(book.pausedUntil('p/b', 'p', K), null, 'its siblings are free again with it');
    assert.equal(book.pausedUntil('p/b', 'p', other), null, 'on every key');
    assert.equal(book.pausedUntil('q/a', 'q', K), T0 + 30_000, 'another account keeps its pause');
    assert.deepEqual(changes, [{ provider: 'p' }]);

    book.pauseProvider('p', K, 3_600_000, 'payment_required', true);
    assert.equal(book.clearModel('p/a', 'p'), false);
    assert.equal(book.pausedUntil('p/a', 'p', K), T0 + 3_600_000, 'out of credit stays');
    await book.close();
  });
});

test('an auth block holds for its own key only and is lifted by clearAuth', async () => {
  await withDir(async (dir) => {
    const { book, changes } = makeBook(join(dir, 'quota.json'));
    const oldKey = keyFingerprint('sk-old');
    const newKey = keyFingerprint('sk-new');
    book.blockAuth('groq', oldKey);
    assert.equal(book.isAuthBlocked('groq', oldKey), true);
    assert.equal(book.isAuthBlocked('cerebras', oldKey), false);
    assert.equal(book.isAuthBlocked('groq', newKey), false, 'another key of the provider is not blocked');
    assert.deepEqual(changes, [{ provider: 'groq' }]);

    book.blockAuth('groq', newKey);
    book.clearAuth('groq');
    assert.equal(book.isAuthBlocked('groq', newKey), false);
    assert.equal(book.isAuthBlocked('groq', oldKey), false);
    await book.close();
  });
});

test('pauses are per key: one key waiting leaves the others usable', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'quota.json'));
    const other = keyFingerprint('sk-two');
    book.pauseModel('p/a', K, 60_000, true);
    book.pauseProvider('q', K, 60_000, 'rate_limit', true);
    assert.equal(book.pausedUntil('p/a', 'p', K), T0 + 60_000);
    assert.equal(book.pausedUntil('p/a', 'p', other), null);
    assert.equal(book.pausedUntil('q/x', 'q', other), null);
    book.clearOnSuccess('p/a', 'p', other);
    assert.equal(book.pausedUntil('p/a', 'p', K), T0 + 60_000, "another key's success leaves the pause");
    await book.close();
  });
});

test('an older file (entries scoped to no key) still applies to every key', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'quota.json');
    const fp = keyFingerprint('sk-live');
    await writeFile(
      file,
      JSON.stringify({
        version: STATE_FILE_VERSION,
        savedAt: T0,
        models: { 'p/a': { until: T0 + 60_000, authoritative: true } },
        providers: { q: { until: T0 + 60_000, reason: 'rate_limit', authoritative: true } },
        auth: { groq: { fingerprint: fp, at: T0 } },
      }),
    );
    const { book } = makeBook(file);
    await book.load();
    assert.equal(book.pausedUntil('p/a', 'p', K), T0 + 60_000);
    assert.equal(book.pausedUntil('q/x', 'q', keyFingerprint('sk-two')), T0 + 60_000);
    assert.equal(book.isAuthBlocked('groq', fp), true);
    assert.equal(book.isAuthBlocked('groq', K), false);
    book.clearOnSuccess('p/a', 'p', K);
    assert.equal(book.pausedUntil('p/a', 'p', K), null);
    await book.close();
  });
});

test('pauses and auth blocks survive a restart; pauses over for longer than a repeat’s window do not', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'quota.json');
    const a = makeBook(file);
    const fp = keyFingerprint('sk-live');
    a.book.pauseModel('p/short', K, 10_000, false);
    a.book.pauseModel('p/long', K, 600_000, true);
    a.book.pauseProvider('or', K, 300_000, 'rate_limit', true);
    a.book.blockAuth('groq', fp);
    await a.book.close();
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    const b = makeBook(file);
    b.time.set(T0 + 60_000);
    await b.book.load();
    assert.equal(b.book.pausedUntil('p/short', 'p', K), null);
    assert.deepEqual(b.book.pauseInfo('p/long', 'p', K), {
      until: T0 + 600_000,
      authoritative: true,
      scope: 'model',
      reason: 'rate_limit',
      repeat: 1,
    });
    assert.equal(b.book.pausedUntil('or/any', 'or', K), T0 + 300_000);
    assert.equal(b.book.isAuthBlocked('groq', fp), true);
    b.book.pauseModel('p/other', K, 1000, false);
    await b.book.close();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { models: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(saved.models).sort(),
      [`p/long @${K}`, `p/other @${K}`, `p/short @${K}`],
      'a pause over 50 s ago is kept: a 429 now would repeat it',
    );

    const c = makeBook(file);
    c.time.set(T0 + 20 * 60_000);
    await c.book.load();
    assert.equal(c.book.pausedUntil('p/long', 'p', K), null);
    c.book.pauseModel('p/new', K, 1000, false);
    await c.book.close();
    const later = JSON.parse(await readFile(file, 'utf8')) as { models: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(later.models).sort(),
      [`p/long @${K}`, `p/new @${K}`],
      'pauses over for more than 15 minutes are not rewritten',
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

test('a pause in the file is never longer on load than the longest the router sets (a damaged until: 9e15)', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'quota.json');
    await writeFile(
      file,
      JSON.stringify({
        version: STATE_FILE_VERSION,
        savedAt: T0,
        models: { [`p/a @${K}`]: { until: 9e15, authoritative: true } },
        providers: { [`q @${K}`]: { until: 9e15, reason: 'payment_required', authoritative: true } },
        auth: {},
      }),
    );
    const { book, time } = makeBook(file);
    await book.load();
    assert.equal(book.pausedUntil('p/a', 'p', K), T0 + LONGEST_PAUSE_MS);
    assert.equal(book.pausedUntil('q/x', 'q', K), T0 + LONGEST_PAUSE_MS);
    time.set(T0 + LONGEST_PAUSE_MS);
    assert.equal(book.pausedUntil('p/a', 'p', K), null);
    assert.equal(book.pausedUntil('q/x', 'q', K), null);
    await book.close();
  });
});

test('the longest pause covers every pause the classifier sets', () => {
  assert.ok(LONGEST_PAUSE_MS >= QUOTA_PAUSE_MAX_MS);
  assert.ok(LONGEST_PAUSE_MS >= PAYMENT_PAUSE_MS);
});

test('a pause set or lifted while others are kept is seen by the next question about it', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'quota.json'));
    book.pauseModel('groq/a', K, 60_000, false);
    assert.equal(book.pausedUntil('groq/b', 'groq', K), null);
    book.pauseModel('groq/b', K, 30_000, false);
    assert.equal(book.pausedUntil('groq/b', 'groq', K), T0 + 30_000);
    book.pauseProvider('mistral', K, 10_000, 'rate_limit', false);
    assert.equal(book.pausedUntil('mistral/m', 'mistral', K), T0 + 10_000);
    book.clearOnSuccess('groq/b', 'groq', K);
    assert.equal(book.pausedUntil('groq/b', 'groq', K), null);
    book.clearOnSuccess('mistral/m', 'mistral', K);
    assert.equal(book.pausedUntil('mistral/m', 'mistral', K), null);
    book.clearModel('groq/a');
    assert.equal(book.pausedUntil('groq/a', 'groq', K), null);
    book.pauseModel('groq/a', K, 5_000, true);
    assert.equal(book.pausedUntil('groq/a', 'groq', K), T0 + 5_000);
    await book.close();
  });
});

test('a pause that ran out into another 429 is a repeat: doubled, the router’s own, kept across a restart', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'quota.json');
    const { book, time } = makeBook(file);
    book.pauseModel('groq/a', K, 30_000, true);
    assert.deepEqual(book.pauseInfo('groq/a', 'groq', K), {
      until: T0 + 30_000,
      authoritative: true,
      scope: 'model',
      reason: 'rate_limit',
      repeat: 1,
    });
    time.set(T0 + 31_000);
    book.pauseModel('groq/a', K, 30_000, true);
    assert.deepEqual(book.pauseInfo('groq/a', 'groq', K), {
      until: T0 + 91_000,
      authoritative: false,
      scope: 'model',
      reason: 'rate_limit',
      repeat: 2,
    });
    assert.equal(book.pausedUntil('groq/a', 'groq', keyFingerprint('sk-two')), null, 'another key is apart');
    await book.flush();
    const again = makeBook(file).book;
    await again.load();
    assert.equal(again.pauseInfo('groq/a', 'groq', K)?.repeat, 2);

    time.set(T0 + 92_000);
    book.clearOnSuccess('groq/a', 'groq', K);
    book.pauseModel('groq/a', K, 30_000, true);
    assert.equal(book.pauseInfo('groq/a', 'groq', K)?.repeat, 1, 'a success starts the count again');
    time.set(T0 + 123_000);
    assert.ok(book.clearModel('groq/a') === false);
    book.pauseModel('groq/a', K, 30_000, true);
    assert.equal(book.pauseInfo('groq/a', 'groq', K)?.repeat, 1, 'so does a reset');
    await Promise.all([book.close(), again.close()]);
  });
});

test('a key-wide rate limit repeats as a model’s does; a 402 never does, nor a 429 after one', async () => {
  await withDir(async (dir) => {
    const { book, time } = makeBook(join(dir, 'quota.json'));
    book.pauseProvider('or', K, 30_000, 'rate_limit', true);
    time.set(T0 + 31_000);
    book.pauseProvider('or', K, 30_000, 'rate_limit', true);
    assert.deepEqual(book.pauseInfo('or/x', 'or', K), {
      until: T0 + 91_000,
      authoritative: false,
      scope: 'provider',
      reason: 'rate_limit',
      repeat: 2,
    });
    time.set(T0 + 92_000);
    book.pauseProvider('or', K, 60_000, 'payment_required', true);
    assert.equal(book.pauseInfo('or/x', 'or', K)?.repeat, 1, 'out of credit is not a rate limit met again');
    time.set(T0 + 153_000);
    book.pauseProvider('or', K, 30_000, 'rate_limit', true);
    assert.equal(book.pauseInfo('or/x', 'or', K)?.repeat, 1, 'nor is a 429 after a 402');
    await book.close();
  });
});

test('a restart after a pause ran out keeps its repeat: the next 429 doubles it still', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'quota.json');
    const first = makeBook(file);
    first.book.pauseModel('groq/a', K, 30_000, true);
    first.time.set(T0 + 31_000);
    first.book.pauseModel('groq/a', K, 30_000, true);
    assert.equal(first.book.pauseInfo('groq/a', 'groq', K)?.repeat, 2);
    await first.book.close();

    // Down while the second pause ran out; a save of another change after it ran out keeps it too.
    const second = makeBook(file);
    second.time.set(T0 + 100_000);
    await second.book.load();
    assert.equal(second.book.pausedUntil('groq/a', 'groq', K), null, 'over: the model is asked again');
    second.book.pauseModel('groq/b', K, 1000, false);
    await second.book.close();

    const third = makeBook(file);
    third.time.set(T0 + 110_000);
    await third.book.load();
    third.book.pauseModel('groq/a', K, 30_000, true);
    assert.deepEqual(third.book.pauseInfo('groq/a', 'groq', K), {
      until: T0 + 110_000 + 120_000,
      authoritative: false,
      scope: 'model',
      reason: 'rate_limit',
      repeat: 3,
    });
    await third.book.close();
  });
});
