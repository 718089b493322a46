import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallsAfterWords, callsAfterWords } from './calls-after-words.js';

const OFFERED = new Set(['Read', 'Bash']);
const READ = { name: 'Read', args: '{"path":"a.txt"}' };
const BASH = { name: 'Bash', args: '{"command":"ls"}' };
const READ_BLOCK = '<tool_call>\n{"name": "Read", "arguments": {"path": "a.txt"}}\n</tool_call>';
const BASH_BLOCK = '<tool_call>{"name":"Bash","arguments":{"command":"ls"}}</tool_call>';

/** Texts whose words end with calls: the words before them, and the calls. */
const CALLS: [string, string, (typeof READ)[]][] = [
  [`I will read it.\n\n${READ_BLOCK}`, 'I will read it.', [READ]],
  [
    `First the file, then the listing:\n${READ_BLOCK}\n${BASH_BLOCK}\n`,
    'First the file, then the listing:',
    [READ, BASH],
  ],
  [`Reading.\r\n${BASH_BLOCK}`, 'Reading.', [BASH]],
  [
    'Then:\n<tool_call>\n<function=Read>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>',
    'Then:',
    [READ],
  ],
  ['Listing.\n[TOOL_CALLS][{"name":"Bash","arguments":{"command":"ls"}}]', 'Listing.', [BASH]],
  ['Listing.\n[TOOL_CALLS]Bash[ARGS]{"command":"ls"}', 'Listing.', [BASH]],
  ['Step one.\n<tool_call>{"name":"Read","arguments":{"path":"a.txt"}}', 'Step one.', [READ]],
  [`Shown: \`<tool_call>\` opens a call.\n${BASH_BLOCK}`, 'Shown: `<tool_call>` opens a call.', [BASH]],
  [
    `An example:\n<tool_call> tags wrap it.\nNow:\n${BASH_BLOCK}`,
    'An example:\n<tool_call> tags wrap it.\nNow:',
    [BASH],
  ],
];

/** Texts that are words: markup shown, inline, followed by words, or calls no offered tool can run. */
const WORDS = [
  'Hello!\nHow are you?',
  `Wrap it like this:\n\`\`\`\n${READ_BLOCK}\n\`\`\``,
  `Sure. ${BASH_BLOCK}`,
  `Like this:\n${BASH_BLOCK}\nand the model gets its output.`,
  'Then:\n<tool_call>{"name":"Write","arguments":{"path":"a.txt"}}</tool_call>',
  'Then:\n<tool_call>{"name":"Bash","arguments":"ls"}</tool_call>',
  'Then:\n<tool_call>\n<invoke name="Read">\n<parameter name="path">a.txt</parameter>\n</invoke>\n</tool_call>',
  'Then:\n<tool_call> is the tag a Hermes template writes.',
  'A list:\n[TOOL_CALLS] is Mistral’s.',
  'Ends with a line start: <',
  'Ends with a blank line start\n   ',
  `Indented, as in a list:\n  ${BASH_BLOCK}`,
];

/** Streams `text` in pieces of `size` characters: what went on as it came, and the end. */
function streamed(text: string, size: number, limit = 10_000) {
  const watch = new CallsAfterWords(OFFERED, limit);
  let out = '';
  for (let at = 0; at < text.length; at += size) out += watch.push(text.slice(at, at + size));
  const end = watch.end();
  return { out: out + end.words, calls: end.calls };
}

test('calls written on their own lines after the words are read, whole or streamed in pieces of any size', () => {
  for (const [text, words, calls] of CALLS) {
    assert.deepEqual(callsAfterWords(text, OFFERED), { words, calls }, text);
    for (let size = 1; size <= 9; size += 1) {
      const got = streamed(text, size);
      assert.deepEqual(got.calls, calls, `${text} in pieces of ${size}`);
      assert.equal(got.out.trimEnd(), words, `${text} in pieces of ${size}`);
    }
  }
});

test('markup shown in a fence, inline, before more words, or calling what cannot run is words, every character kept', () => {
  for (const text of WORDS) {
    assert.equal(callsAfterWords(text, OFFERED), null, text);
    for (let size = 1; size <= 9; size += 1)
      assert.deepEqual(streamed(text, size), { out: text, calls: [] }, `${text} in pieces of ${size}`);
  }
  assert.equal(callsAfterWords(`Sure.\n${BASH_BLOCK}`, new Set()), null, 'no tool offered');
});

test('words go on as they come: only a line start that may open markup waits, and markup shown is let go at once', () => {
  const watch = new CallsAfterWords(OFFERED, 10_000);
  assert.equal(watch.push('Hello wor'), 'Hello wor');
  assert.equal(watch.push('ld.\n'), 'ld.\n');
  assert.equal(watch.push('    return x;\n'), '    return x;\n', 'an indented line goes on');
  assert.equal(watch.push('<'), '', 'a line start that may open markup waits');
  assert.equal(watch.push('b>bold</b> '), '<b>bold</b> ');
  assert.equal(watch.push('\n<tool_call>'), '\n');
  assert.equal(watch.holding, true);
  assert.equal(
    watch.push(' tags'),
    '<tool_call> tags',
    'no JSON after the tag: words, let go before the end',
  );
  assert.equal(watch.holding, false);
  assert.equal(watch.push(' wrap calls.'), ' wrap calls.');
});

test('held markup past the limit goes on as words, and nothing after it is held', () => {
  const watch = new CallsAfterWords(OFFERED, 40);
  assert.equal(watch.push('Go.\n<tool_call>{"name":"Bash",'), 'Go.\n');
  const long = '"arguments":{"command":"' + 'x'.repeat(40);
  assert.equal(watch.push(long), '<tool_call>{"name":"Bash",' + long);
  assert.equal(watch.push('"}}</tool_call>\n<tool_call>'), '"}}</tool_call>\n<tool_call>');
  assert.deepEqual(watch.end(), { words: '', calls: [] });
});

test('stopped (the answer went on with a call of its own), what was held goes on as words', () => {
  const watch = new CallsAfterWords(OFFERED, 10_000);
  assert.equal(watch.push(`Ok.\n${BASH_BLOCK}`), 'Ok.\n');
  assert.equal(watch.stop(), BASH_BLOCK);
});
