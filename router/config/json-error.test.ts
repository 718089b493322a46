import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeJsonError, firstJsonErrorOffset, jsonErrorPlace } from './json-error.js';

/** What `describeJsonError` says about `text`, which must not parse. */
function described(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return describeJsonError(error, text);
  }
  throw new Error(`${text} parsed`);
}

test('every JSON error names its line and column and never quotes the text', () => {
  const cases: [string, string][] = [
    // V8 names no position for these: the text is read to find it.
    ['// c\n{}', "invalid JSON at line 1, column 1: Unexpected token '/'"],
    ['{\n  "groq": \'gsk_SINGLEQUOTED123456\'\n}', "invalid JSON at line 2, column 11: Unexpected token '''"],
    ['{\n  "apiKey": gsk_unquoted\n}', 'invalid JSON at line 2, column 13: Unexpected character'],
    ['{"a": [1, 2,]}', "invalid JSON at line 1, column 13: Unexpected token ']'"],
    ['{"a": tru}', "invalid JSON at line 1, column 10: Unexpected token '}'"],
    // V8 names a position: its words stay, the position becomes a line and column.
    ['{\n  "activeSet": "x",\n}\n', 'invalid JSON at line 3, column 1: Expected double-quoted property name'],
    [
      '{"k": "gsk_abcdefgh" "b": 1}',
      "invalid JSON at line 1, column 22: Expected ',' or '}' after property value",
    ],
    ['{"a": 1}\n//x', 'invalid JSON at line 2, column 1: Unexpected non-whitespace character after JSON'],
    ['{\n  "a": ', 'invalid JSON at line 2, column 8: Unexpected end of JSON input'],
  ];
  for (const [text, expected] of cases) {
    const said = described(text);
    assert.equal(said, expected, text);
    assert.doesNotMatch(said, /gsk|SINGL|unquoted|activeSet/, 'no part of the text');
  }
  const key = `{"apiKey": ${'x'.repeat(40)}gsk_secret}`;
  assert.doesNotMatch(described(key), /gsk|xx/);
});

test('the line and column of an error, for a caller with words of its own', () => {
  const text = '{\n  "env": { "KEY": "sk-secret" }}\n}\n';
  try {
    JSON.parse(text);
  } catch (error) {
    assert.deepEqual(jsonErrorPlace(error, text), { line: 3, column: 1 });
  }
});

test('reading finds no error in JSON, and stops where JSON.parse does', () => {
  fc.assert(
    fc.property(fc.json(), (text) => {
      assert.equal(firstJsonErrorOffset(text), null);
    }),
  );
  assert.equal(firstJsonErrorOffset('{"a": 1} x'), 9);
  assert.equal(firstJsonErrorOffset('[1, "a\\u00e9", {"x": [true, false, null, -1.5e3]}'), 49);
  assert.equal(firstJsonErrorOffset('{"a": "x\ny"}'), 8);
  assert.equal(firstJsonErrorOffset('{"a": nope}'), 7);
});
