/** The textual edit of Codex's config.toml: our lines only, in place, comments and other tables kept. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import { applyCodex } from './codex-toml.js';
import { stripCodex } from './codex-toml-undo.js';
import { previewDiff } from './text-diff.js';

const target = { origin: 'http://127.0.0.1:5000', contextWindow: 32_000 };
const FILE = '/home/me/.codex/config.toml';
const OUR_TABLE = [
  '[model_providers.fcm]',
  'name = "fcm-router"',
  'base_url = "http://127.0.0.1:5000/v1"',
  'wire_api = "responses"',
];

test('an existing [model_providers.fcm] table is edited where it stands; the window set at the top', () => {
  const before = [
    '[profiles.a] # first table',
    'model = "x"',
    '',
    '[model_providers.fcm]',
    'base_url = "http://old/v1"',
    'name = "old"',
    '',
    '# about the next table',
    '[model_providers.other]',
    'base_url = "http://other/v1"',
    '',
  ].join('\n');
  const after = applyCodex(before, target);
  assert.equal(
    after,
    [
      'model = "fcm"',
      'model_provider = "fcm"',
      'model_context_window = 32000',
      '',
      '[profiles.a] # first table',
      'model = "x"',
      '',
      '[model_providers.fcm]',
      'base_url = "http://127.0.0.1:5000/v1"',
      'name = "fcm-router"',
      'wire_api = "responses"',
      '',
      '# about the next table',
      '[model_providers.other]',
      'base_url = "http://other/v1"',
      '',
    ].join('\n'),
  );
  assert.equal(applyCodex(after, target), after, 'idempotent');
  const stripped = stripCodex(after);
  assert.doesNotMatch(stripped, /fcm|model_context_window/);
  assert.match(stripped, /^\[profiles\.a\] # first table\nmodel = "x"\n/m);
  assert.match(stripped, /# about the next table\n\[model_providers\.other\]/);
});

test('strip leaves a model that does not point at the router alone', () => {
  const text = 'model = "o3"\nmodel_provider = "openai"\n';
  assert.equal(stripCodex(text), text);
});

test('a key = line inside a multi-line string is text: the real top-level model is set, and undo keeps the string', () => {
  const string = [
    'developer_instructions = """',
    'Be terse.',
    'model = "gpt-5" is what I use',
    '[not a table]',
    '"""',
  ];
  const after = applyCodex([...string, 'model = "gpt-5"', ''].join('\n'), target);
  assert.equal(
    after,
    [
      ...string,
      'model = "fcm"',
      'model_provider = "fcm"',
      'model_context_window = 32000',
      '',
      ...OUR_TABLE,
      '',
    ].join('\n'),
  );
  assert.equal(
    stripCodex(after),
    [...string, ''].join('\n'),
    "undo removes our keys, not the string's lines",
  );
});

test('a file that is not valid TOML is refused with its line, never edited', () => {
  const broken = 'model = "gpt-5\n[broken\n';
  const refusal = {
    message:
      /^\/home\/me\/\.codex\/config\.toml is not valid TOML \(line 1, [^)]*\): nothing was changed; fix it or move it aside$/,
  };
  assert.throws(() => applyCodex(broken, target, FILE), refusal);
  assert.throws(() => stripCodex(broken, FILE), refusal);
  assert.throws(() => applyCodex('a = 1\n\n[t]\nb = 2\nb = 3\n', target, FILE), /valid TOML \(line 5, /);
});

test('model_providers.fcm written inline or with dotted keys is refused, naming the line; nothing is written', () => {
  const cases: [string, RegExp][] = [
    [
      '[model_providers]\nfcm = { name = "x", base_url = "http://y" }\n',
      /model_providers\.fcm is written as an inline table \(line 2\)/,
    ],
    [
      'model = "o3"\nmodel_providers.fcm.name = "x"\n',
      /model_providers\.fcm is written with dotted keys \(line 2\)/,
    ],
    [
      '[model_providers]\nfcm.base_url = "http://y"\n',
      /model_providers\.fcm is written with dotted keys \(line 2\)/,
    ],
    [
      'model_providers = { other = { name = "o" } }\n',
      /model_providers is written as an inline table \(line 1\)/,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => applyCodex(text, target, FILE), message, text);
    assert.throws(() => applyCodex(text, target, FILE), /cannot edit safely; nothing was changed/, text);
  }
});

test('an edit that would not give valid TOML pointing at the router is refused', () => {
  // `model` is a table here: a `model = "fcm"` line beside it would define it twice.
  assert.throws(
    () => applyCodex('model.name = "x"\n', target, FILE),
    /config\.toml: fcm-router could not edit it into valid TOML \(line \d+, [^)]*\); nothing was changed/,
  );
});

test('every other form stays editable, and what setup writes parses to the router with the rest unchanged', () => {
  const texts = [
    '[model_providers]\nother = { name = "o", base_url = "http://o/v1" }\n',
    '[model_providers]\nother.name = "o"\n',
    '"model" = \'gpt-5\'\nbig = 9007199254740993\nwhen = 1979-05-27T07:32:00Z\nlist = [\n  "model = x", # [not a table]\n]\n',
    '[model_providers.fcm.http_headers]\nX-Mine = "1"\n',
  ];
  for (const text of texts) {
    const after = applyCodex(text, target, FILE);
    const data = parse(after, { integersAsBigInt: 'asNeeded' });
    assert.equal(data.model, 'fcm', text);
    assert.equal(data.model_provider, 'fcm', text);
    assert.deepEqual(
      Object.entries((data.model_providers as Record<string, Record<string, unknown>>).fcm ?? {}).filter(
        ([key]) => key !== 'http_headers',
      ),
      [
        ['name', 'fcm-router'],
        ['base_url', 'http://127.0.0.1:5000/v1'],
        ['wire_api', 'responses'],
      ],
      text,
    );
    assert.equal(applyCodex(after, target, FILE), after, `idempotent: ${text}`);
    parse(stripCodex(after, FILE), { integersAsBigInt: 'asNeeded' });
  }
});

test('a comment on the model line stays, on the line and after undo', () => {
  const after = applyCodex('model = "gpt-5"   # my favourite\n', target);
  assert.match(after, /^model = "fcm" {3}# my favourite\n/);
  assert.match(stripCodex(after), /^# my favourite\n/);
});

test('a file with CRLF line endings keeps them on every line, ours included', () => {
  const before =
    'model = "gpt-5"\r\napproval_policy = "never"\r\n\r\n[mcp_servers.docs]\r\ncommand = "x"\r\n';
  const after = applyCodex(before, target);
  assert.match(after, /model_provider = "fcm"\r\n/);
  assert.doesNotMatch(after, /[^\r]\n/, 'no bare LF');
  const stripped = stripCodex(after);
  assert.equal(stripped, 'approval_policy = "never"\r\n\r\n[mcp_servers.docs]\r\ncommand = "x"\r\n');
});

test("our table goes before the user's tables; lines added at the end later are never removed by undo", () => {
  const withTables = applyCodex('model = "gpt-5"\n\n[profiles.x]\nmodel = "o3"\n', target);
  assert.equal(
    withTables,
    [
      'model = "fcm"',
      'model_provider = "fcm"',
      'model_context_window = 32000',
      '',
      ...OUR_TABLE,
      '',
      '[profiles.x]',
      'model = "o3"',
      '',
    ].join('\n'),
  );
  const appended = `${withTables}model_reasoning_effort = "high"\n`;
  assert.equal(stripCodex(appended), '[profiles.x]\nmodel = "o3"\nmodel_reasoning_effort = "high"\n');

  // Without a table of the user's, ours is last: lines appended later fall in it, and undo then leaves
  // the table whole (Codex needs its name), their lines in it.
  const alone = applyCodex('model = "gpt-5"\n', target);
  const later = `${alone}approval_policy = "never" # mine\n\n[profiles.y]\nmodel = "o3"\n`;
  assert.equal(
    stripCodex(later),
    [...OUR_TABLE, 'approval_policy = "never" # mine', '', '[profiles.y]', 'model = "o3"', ''].join('\n'),
  );
});

test('the preview shows changed lines with context and elides the rest', () => {
  const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
  const after = ['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].join('\n');
  assert.equal(
    previewDiff('f.toml', before, after),
    ['--- f.toml', '+++ f.toml', '  a', '- b', '+ B', '  c', '  d', '  …', '  g', '  h', '+ i'].join('\n'),
  );
  assert.equal(previewDiff('f.toml', 'same', 'same'), '');
});
