import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readUtf8 } from './utf8-text.js';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))),
  );

test('UTF-8 is read as it is: a byte-order mark and a U+FFFD written in the file are characters', () => {
  assert.deepEqual(readUtf8(bytes('\uFEFF{"name": "Café \uFFFD 通义 😀"}')), {
    ok: true,
    text: '\uFEFF{"name": "Café \uFFFD 通义 😀"}',
  });
  assert.deepEqual(readUtf8(Buffer.alloc(0)), { ok: true, text: '' });
});

test('the first byte that is no part of a UTF-8 character is named, with the text before it', () => {
  const cases: [Buffer, number, string][] = [
    // A Latin-1 é.
    [bytes('{"name": "Caf', [0xe9], ' Groq"}'), 13, '{"name": "Caf'],
    // After a U+FFFD the file holds as such, and after other characters of several bytes.
    [bytes('\uFEFF通\uFFFD😀', [0xff], 'x'), 3 + 3 + 3 + 4, '\uFEFF通\uFFFD😀'],
    // A character cut short, at the end or before another.
    [bytes('ab', [0xe2, 0x82]), 2, 'ab'],
    [bytes('a', [0xc3], 'A'), 1, 'a'],
    // An overlong form, and a surrogate (neither is UTF-8).
    [bytes('a\n', [0xc0, 0x80]), 2, 'a\n'],
    [bytes('é', [0xed, 0xa0, 0x80]), 2, 'é'],
  ];
  for (const [input, byte, before] of cases)
    assert.deepEqual(readUtf8(input), { ok: false, byte, before }, input.toString('hex'));
});

test('a byte put in any text where no UTF-8 character may start is found where it was put', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'grapheme' }),
      fc.nat(),
      fc.integer({ min: 0x80, max: 0xff }).filter((b) => b < 0xc2 || b > 0xf4),
      (text, at, bad) => {
        const chars = [...text];
        const cut = at % (chars.length + 1);
        const before = chars.slice(0, cut).join('');
        const input = bytes(before, [bad], chars.slice(cut).join(''));
        assert.deepEqual(readUtf8(input), { ok: false, byte: Buffer.byteLength(before), before });
      },
    ),
  );
});
