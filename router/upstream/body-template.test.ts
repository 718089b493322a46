import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyBodyPreset } from './body-presets.js';
import { BodyTemplate } from './body-template.js';

/** What every attempt must send: the client's body with `model` set, keys in the order a spread gives. */
const expected = (body: Record<string, unknown>, model: string): string => JSON.stringify({ ...body, model });

test('every attempt, first or later, sends the body with only its model changed', () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.boolean(),
      fc.array(fc.string(), { minLength: 1, maxLength: 4 }),
      (raw, withModel, models) => {
        const body: Record<string, unknown> = withModel ? { model: 'fcm', ...raw } : { ...raw };
        const before = JSON.stringify(body);
        const template = new BodyTemplate(body);
        for (const model of models) assert.equal(template.forModel(model, null, null), expected(body, model));
        assert.equal(JSON.stringify(body), before, 'the client body itself is left as it was');
      },
    ),
    { numRuns: 300 },
  );
});

test('a body that quotes a placeholder-like model string is still cut at its own model', () => {
  const body = { messages: [{ role: 'user', content: '"__fcm_model_x_1__"' }], model: 'fcm', stream: true };
  const template = new BodyTemplate(body);
  assert.equal(template.forModel('a', null, null), expected(body, 'a'));
  assert.equal(template.forModel('b"\\c', null, null), expected(body, 'b"\\c'));
  assert.equal(template.forModel('d', null, null), expected(body, 'd'));
});

test('a provider preset reshapes the body on every attempt', () => {
  const body = { model: 'fcm', messages: [{ role: 'user', content: 'hi' }] };
  const template = new BodyTemplate(body);
  const shaped = JSON.stringify({ ...applyBodyPreset(body, 'mistral', null), model: 'm' });
  assert.equal(template.forModel('m', 'mistral', null), shaped);
  assert.equal(template.forModel('x', null, null), expected(body, 'x'));
  assert.equal(template.forModel('m', 'mistral', null), shaped);
});
