import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { applyKeystrokes, MAX_SECRET_LENGTH, readSecret, secretFromPipe } from './cli-secret.js';

const start = { value: '', done: false, cancelled: false };

test('typed keys: Enter ends, Backspace edits, control characters are ignored, Ctrl-C cancels', () => {
  let typed = applyKeystrokes(start, 'sk-ab');
  assert.deepEqual(typed, { value: 'sk-ab', done: false, cancelled: false });
  typed = applyKeystrokes(typed, '\u007fc\u001b\td');
  assert.deepEqual(typed, { value: 'sk-acd', done: false, cancelled: false });
  assert.deepEqual(applyKeystrokes(typed, 'e\rignored'), { value: 'sk-acde', done: true, cancelled: false });
  assert.deepEqual(applyKeystrokes(typed, '\u0004'), { value: 'sk-acd', done: true, cancelled: false });
  assert.deepEqual(applyKeystrokes(typed, 'x\u0003'), { value: '', done: true, cancelled: true });
  assert.equal(applyKeystrokes(start, 'k'.repeat(MAX_SECRET_LENGTH + 10)).value.length, MAX_SECRET_LENGTH);
});

test('piped keys lose only the surrounding blanks and the final line break', () => {
  assert.equal(secretFromPipe('sk-123\n'), 'sk-123');
  assert.equal(secretFromPipe('  sk-123\r\n'), 'sk-123');
  assert.equal(secretFromPipe(''), '');
});

test('readSecret from a pipe reads to the end and never writes the key', async () => {
  const input = new PassThrough();
  const written: string[] = [];
  const reading = readSecret(input, { write: (text: string) => written.push(text) }, 'Key: ');
  input.end('sk-piped-canary\n');
  assert.equal(await reading, 'sk-piped-canary');
  assert.deepEqual(written, [], 'no prompt and no echo for piped input');

  const huge = new PassThrough();
  const refused = readSecret(huge, { write: () => undefined }, '');
  huge.write('k'.repeat(MAX_SECRET_LENGTH + 100));
  await assert.rejects(refused, /longer than 4096/);
});

test('readSecret at a terminal switches echo off while typing and back on after', async () => {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    modes: [] as boolean[],
    setRawMode(mode: boolean) {
      input.modes.push(mode);
    },
  });
  const written: string[] = [];
  const reading = readSecret(input, { write: (text: string) => written.push(text) }, 'Key for groq: ');
  input.write('sk-typ');
  input.write('ed\r');
  assert.equal(await reading, 'sk-typed');
  assert.deepEqual(input.modes, [true, false]);
  assert.deepEqual(written, ['Key for groq: ', '\n'], 'the prompt and a line break, never the key');
});
