import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { duplicateMembers, type JsonStep } from './json-duplicates.js';

/** What was found, without the offsets: `path.to.object name`. */
function named(text: string): string[] {
  JSON.parse(text);
  return duplicateMembers(text).map(({ objectPath, name }) => `${objectPath.join('.')} ${name}`);
}

test('a name written twice is found in its object, wherever that is, and only there', () => {
  assert.deepEqual(named('{"a": 1, "b": 2, "a": 3}'), [' a']);
  assert.deepEqual(named('{"providers": {"groq": {"apiKey": "x"}, "groq": {}}}'), ['providers groq']);
  assert.deepEqual(named('{"x": [0, {"k": 1}, {"k": 1, "k": 2}]}'), ['x.2 k']);
  assert.deepEqual(named('[[], [{"a": [{"b": 1, "b": 1}]}]]'), ['1.0.a.0 b']);
  // One name however it is written: JSON.parse reads both as "a".
  assert.deepEqual(named('{"a": 1, "\\u0061": 2}'), [' a']);
  assert.deepEqual(named('{"a\\"b": 1, "a\\u0022b": 2}'), [' a"b']);
  // The same name in two objects, in a string, or as a value, is not written twice.
  assert.deepEqual(named('{"a": {"a": {"a": "a"}}, "b": ["a", "a"], "c": "\\"a\\": 1"}'), []);
  assert.deepEqual(named('{"a": {"x": 1}, "b": {"x": 1}}'), []);
  assert.deepEqual(named('"a"'), []);
  // Each copy after the first, in order.
  assert.deepEqual(named('{"a": 1, "a": 2, "b": {"c": 0, "c": 0}, "a": 3}'), [' a', 'b c', ' a']);
});

test('the offsets are those of the two names, and the search stops at the limit', () => {
  const text = '{\n  "groq": {"apiKey": "gsk_1"},\n  "groq": {}\n}';
  assert.deepEqual(duplicateMembers(text), [
    { objectPath: [], name: 'groq', first: text.indexOf('"groq"'), again: text.lastIndexOf('"groq"') },
  ]);
  const many = `{${Array.from({ length: 50 }, () => '"a": 0').join(', ')}}`;
  assert.equal(duplicateMembers(many).length, 49);
  assert.equal(duplicateMembers(many, 3).length, 3);
});

test('any depth JSON.parse reads is read, and a long string is one step', () => {
  const depth = 100_000;
  const deep = `${'['.repeat(depth)}{"a": 1, "a": 2}${']'.repeat(depth)}`;
  const [found] = duplicateMembers(deep);
  assert.equal(found?.objectPath.length, depth);
  assert.ok(found.objectPath.every((step) => step === 0));
  const long = `{"a": "${'x\\"'.repeat(200_000)}", "a": 1}`;
  assert.deepEqual(named(long), [' a']);
});

/** A JSON value written with the names its objects were given, duplicates and all. */
type Tree = { names: [string, Tree][] } | { items: Tree[] } | { scalar: unknown };

const NAMES = fc.constantFrom('a', 'b', 'é', '"', 'a b', '');
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ scalar: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)) }),
    fc.record({ names: fc.array(fc.tuple(NAMES, tie('tree')), { maxLength: 5 }) }),
    fc.record({ items: fc.array(tie('tree'), { maxLength: 4 }) }),
  ),
}));

/** A name as JSON, some characters written as `\u` escapes. */
function writeName(name: string, escaped: boolean): string {
  return escaped
    ? `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
    : JSON.stringify(name);
}

/** The tree as JSON text (blanks around each token), and the names written again, as a reader must find. */
function write(node: Tree, at: JsonStep[], found: string[], escape: () => boolean): string {
  if ('scalar' in node) return JSON.stringify(node.scalar);
  if ('items' in node)
    return `[ ${node.items.map((item, index) => write(item, [...at, index], found, escape)).join(' ,\n')} ]`;
  const seen = new Set<string>();
  const members = node.names.map(([name, value]) => {
    if (seen.has(name)) found.push(`${at.join('.')} ${name}`);
    seen.add(name);
    return `${writeName(name, escape())}\t: ${write(value, [...at, name], found, escape)}`;
  });
  return `{\r\n${members.join(', ')} }`;
}

test('every name written again is found, in order, however the names are written', () => {
  fc.assert(
    fc.property(tree, fc.infiniteStream(fc.boolean()), (root, coins) => {
      const flips = coins[Symbol.iterator]();
      const expected: string[] = [];
      const text = write(root, [], expected, () => flips.next().value === true);
      assert.deepEqual(named(text), expected);
    }),
  );
  fc.assert(
    fc.property(fc.json(), (text) => {
      assert.deepEqual(duplicateMembers(text), []);
    }),
  );
});
