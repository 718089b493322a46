import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TestClock } from '../test-support/test-clock.js';
import {
  FIT_BOOK_MAX_MODELS,
  FitBook,
  GUESSED_CEILING_MS,
  MIN_LEARNT_SIZE,
  REFUSAL_LESSON_MS,
} from './fit-book.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function withBook(
  run: (book: FitBook, file: string, clock: TestClock) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-fit-'));
  const clock = new TestClock();
  const file = path.join(dir, 'fit.json');
  try {
    await run(new FitBook({ file, time: clock, debounceMs: 10, logger: silent }), file, clock);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a refused size sets the ceiling below it (or at the limit the refusal stated); a success above raises it', async () => {
  await withBook(async (book) => {
    book.refusedSize('p/m', 15_000, 'context', null);
    assert.equal(book.get('p/m')?.ceiling?.tokens, 14_999);
    book.refusedSize('p/m', 20_000, 'context', null);
    assert.equal(book.get('p/m')?.ceiling?.tokens, 14_999, 'a larger refusal teaches nothing new');
    book.refusedSize('p/m', 12_000, 'context', 8192);
    assert.equal(book.get('p/m')?.ceiling?.tokens, 8192);
    book.served('p/m', 5000, { tools: false, images: false }, true);
    assert.equal(book.get('p/m')?.ceiling?.tokens, 8192);
    book.served('p/m', 30_000, { tools: false, images: false }, true);
    assert.deepEqual(
      { ...book.get('p/m')?.ceiling, at: 0 },
      { tokens: 30_000, kind: 'context', source: 'served', at: 0 },
    );
  });
});

test('a refused feature is lifted by a success that used it; what was learnt is kept across a restart', async () => {
  await withBook(async (book, file, clock) => {
    book.refusedFeature('p/m', 'tools');
    book.refusedFeature('p/m', 'images');
    book.served('p/m', 10, { tools: true, images: false }, true);
    assert.equal(book.get('p/m')?.noToolsAt, undefined);
    assert.ok(book.get('p/m')?.noImagesAt !== undefined);
    book.refusedSize('q/m', 9000, 'tpm', 6000);
    await book.close();
    const again = new FitBook({ file, time: clock, debounceMs: 10, logger: silent });
    await again.load();
    assert.ok(again.get('p/m')?.noImagesAt !== undefined);
    assert.equal(again.get('q/m')?.ceiling?.kind, 'tpm');
    assert.equal(again.get('q/m')?.ceiling?.tokens, 6000);
    again.forget('q/m');
    assert.equal(again.get('q/m'), undefined);
    await again.close();
  });
});

test('a refusal of a small request that names no limit teaches no ceiling; one that names a limit does', async () => {
  await withBook(async (book) => {
    book.refusedSize('p/m', 13, 'context', null);
    book.refusedSize('p/m', MIN_LEARNT_SIZE, 'tpm', null);
    assert.equal(book.get('p/m'), undefined, 'a prompt of 13 tokens is too long for no real model');
    book.refusedSize('p/m', 3000, 'context', 2048);
    assert.equal(book.get('p/m')?.ceiling?.tokens, 2048);
  });
});

test('a guessed ceiling is forgotten a day after it was learnt; a stated one and a refused feature stay', async () => {
  await withBook(async (book, file, clock) => {
    book.refusedSize('guess/m', 30_000, 'context', null);
    book.refusedFeature('guess/m', 'tools');
    book.refusedSize('alone/m', 30_000, 'context', null);
    book.refusedSize('said/m', 30_000, 'context', 8192);
    clock.advance(GUESSED_CEILING_MS - 1);
    assert.equal(book.get('guess/m')?.ceiling?.tokens, 29_999, 'still within its day');
    clock.advance(1);
    assert.equal(book.get('guess/m')?.ceiling, undefined);
    assert.ok(book.get('guess/m')?.noToolsAt !== undefined, 'what it refused is kept');
    assert.equal(book.get('alone/m'), undefined);
    assert.equal(book.get('said/m')?.ceiling?.tokens, 8192);
    book.refusedSize('alone/m', 40_000, 'context', null);
    assert.equal(book.get('alone/m')?.ceiling?.tokens, 39_999, 'a new refusal teaches it again');
    await book.close();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { models: Record<string, object> };
    assert.deepEqual(Object.keys(saved.models).sort(), ['alone/m', 'guess/m', 'said/m']);
    assert.equal('ceiling' in (saved.models['guess/m'] ?? {}), false, 'the file no longer holds it');
  });
});

test('a request refused that another model served holds for an hour; an agent request served lifts it; a restart keeps it', async () => {
  await withBook(async (book, file, clock) => {
    assert.equal(book.anyTaught('refusedServedAt'), false);
    assert.equal(book.lately('p/m', 'refusedServedAt'), null);
    const at = clock.now();
    book.learn('p/m', 'refusedServedAt');
    book.learn('q/m', 'refusedServedAt');
    book.refusedFeature('q/m', 'tools');
    assert.equal(book.anyTaught('refusedServedAt'), true);
    assert.equal(book.lately('p/m', 'refusedServedAt'), at);
    book.served('q/m', 10, { tools: false, images: false }, false);
    assert.equal(
      book.lately('q/m', 'refusedServedAt'),
      at,
      'a probe’s or a test’s success says nothing of it',
    );
    book.served('q/m', 10, { tools: false, images: false }, true);
    assert.equal(book.lately('q/m', 'refusedServedAt'), null, 'an agent request served lifts it');
    book.learn('r/m', 'refusedServedAt');
    book.served('r/m', 10, { tools: false, images: false }, true);
    assert.equal(book.get('r/m'), undefined, 'nothing left to know of it: dropped');
    assert.ok(book.get('q/m')?.noToolsAt !== undefined, 'a success without tools lifts no tool refusal');
    await book.close();
    const again = new FitBook({ file, time: clock, debounceMs: 10, logger: silent });
    await again.load();
    assert.equal(again.lately('p/m', 'refusedServedAt'), at, 'kept across a restart');
    clock.advance(REFUSAL_LESSON_MS - 1);
    assert.equal(again.lately('p/m', 'refusedServedAt'), at);
    clock.advance(1);
    assert.equal(again.lately('p/m', 'refusedServedAt'), null, 'an hour on it is asked again');
    again.learn('p/m', 'refusedServedAt');
    again.forget('p/m');
    assert.equal(again.lately('p/m', 'refusedServedAt'), null);
    assert.equal(again.anyTaught('refusedServedAt'), false, 'none left: ranking looks no further');
    await again.close();
  });
});

test('a forced tool call ignored holds for an hour; a request forcing one served lifts it; a restart keeps it', async () => {
  await withBook(async (book, file, clock) => {
    assert.equal(book.anyTaught('ignoredForcedAt'), false);
    const at = clock.now();
    book.learn('p/m', 'ignoredForcedAt');
    book.learn('q/m', 'ignoredForcedAt');
    assert.equal(book.anyTaught('ignoredForcedAt'), true);
    assert.equal(book.anyTaught('refusedServedAt'), false, 'no refusal of the request itself');
    assert.equal(book.lately('p/m', 'ignoredForcedAt'), at);
    book.served('q/m', 10, { tools: true, images: false }, true);
    assert.equal(book.lately('q/m', 'ignoredForcedAt'), at, 'a request forcing no call says nothing of it');
    book.served('q/m', 10, { tools: true, images: false, forcedCall: true }, true);
    assert.equal(book.lately('q/m', 'ignoredForcedAt'), null, 'a forced call made lifts it');
    await book.close();
    const again = new FitBook({ file, time: clock, debounceMs: 10, logger: silent });
    await again.load();
    assert.equal(again.lately('p/m', 'ignoredForcedAt'), at, 'kept across a restart');
    clock.advance(REFUSAL_LESSON_MS);
    assert.equal(again.lately('p/m', 'ignoredForcedAt'), null, 'an hour on it is asked again');
    again.forget('p/m');
    assert.equal(again.anyTaught('ignoredForcedAt'), false);
    await again.close();
  });
});

test('a model dropped as the oldest is no longer counted as refusing', async () => {
  await withBook(async (book) => {
    book.learn('first/m', 'refusedServedAt');
    for (let i = 0; i < FIT_BOOK_MAX_MODELS; i += 1) book.refusedFeature(`p/m${i}`, 'images');
    assert.equal(book.get('first/m'), undefined);
    assert.equal(book.anyTaught('refusedServedAt'), false);
    await book.close();
  });
});
