/** The textual edit of Codex's config.toml: our lines only, in place, comments and other tables kept. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyCodex, stripCodex } from './codex-toml.js';
import { previewDiff } from './text-diff.js';

const target = { origin: 'http://127.0.0.1:5000', contextWindow: 32_000 };

test('an existing [model_providers.fcm] table is replaced where it stands; the window set at the top', () => {
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
      'name = "fcm-router"',
      'base_url = "http://127.0.0.1:5000/v1"',
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

test('the preview shows changed lines with context and elides the rest', () => {
  const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
  const after = ['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].join('\n');
  assert.equal(
    previewDiff('f.toml', before, after),
    ['--- f.toml', '+++ f.toml', '  a', '- b', '+ B', '  c', '  d', '  …', '  g', '  h', '+ i'].join('\n'),
  );
  assert.equal(previewDiff('f.toml', 'same', 'same'), '');
});
