import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkCompletion,
  checkResponseBody,
  describeUpstreamError,
  looksLikeHtml,
  readUsage,
} from './response-gate.js';

const json = (value: unknown): string => JSON.stringify(value);
const completion = (message: unknown, extra: Record<string, unknown> = {}): string =>
  json({
    id: 'c1',
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: 'stop' }],
    ...extra,
  });

test('HTML by content-type or by the start of the body, in every mode', () => {
  for (const mode of ['strict', 'basic', 'off'] as const) {
    const byType = checkResponseBody(completion({ content: 'hi' }), 'text/html; charset=utf-8', mode);
    assert.equal(byType.ok, false);
    if (!byType.ok) assert.equal(byType.kind, 'html_maintenance');
    for (const body of [
      '<!DOCTYPE html><html>',
      '\uFEFF  \n<html lang="en">',
      '<HEAD><title>502',
      ' <body>x',
    ]) {
      const verdict = checkResponseBody(body, 'application/json', mode);
      assert.equal(verdict.ok ? 'ok' : verdict.kind, 'html_maintenance', body);
    }
  }
  assert.equal(looksLikeHtml('<?xml version="1.0"?>'), false);
  assert.equal(looksLikeHtml('{"a":"<html>"}'), false);
});

test('invalid_json for non-JSON and non-object bodies, even in mode off', () => {
  for (const mode of ['strict', 'basic', 'off'] as const) {
    for (const body of ['', 'upstream error', '{"choices":', '[]', '"text"', 'null', '42']) {
      const verdict = checkResponseBody(body, 'application/json', mode);
      assert.equal(verdict.ok ? 'ok' : verdict.kind, 'invalid_json', `${mode}: ${body}`);
    }
  }
});

test('mode off passes any JSON object', () => {
  assert.deepEqual(checkResponseBody('{}', null, 'off'), {
    ok: true,
    rewritten: null,
    usage: null,
    body: {},
    callsFromText: false,
  });
  const withError = checkResponseBody(json({ error: { message: 'x' } }), null, 'off');
  assert.equal(withError.ok, true);
});

test('error_payload: detail cut to 200 chars, code from error.code or error.status', () => {
  const long = 'x'.repeat(500);
  const verdict = checkResponseBody(json({ error: { message: long, code: 429 } }), null, 'basic');
  assert.deepEqual(verdict, { ok: false, kind: 'error_payload', detail: 'x'.repeat(200), errorCode: 429 });

  const stringError = checkResponseBody(json({ error: 'Provider returned error' }), null, 'strict');
  assert.deepEqual(stringError, {
    ok: false,
    kind: 'error_payload',
    detail: 'Provider returned error',
    errorCode: null,
  });

  const statusOnly = checkResponseBody(
    json({ error: { message: 'busy', status: 'UNAVAILABLE' } }),
    null,
    'basic',
  );
  assert.equal(!statusOnly.ok && statusOnly.errorCode, 'UNAVAILABLE');

  // An error object next to choices still fails: the provider said it failed.
  const both = checkResponseBody(
    json({ error: { message: 'm' }, choices: [{ message: { content: 'x' } }] }),
    null,
    'basic',
  );
  assert.equal(both.ok ? 'ok' : both.kind, 'error_payload');

  // `error: null` is not an error.
  const nullError = checkResponseBody(completion({ content: 'fine' }, { error: null }), null, 'strict');
  assert.equal(nullError.ok, true);
});

test('describeUpstreamError prefers a numeric code and strips control characters', () => {
  assert.deepEqual(
    describeUpstreamError({ code: 'rate_limit_exceeded', status: 429, message: 'slow\ndown' }),
    {
      errorCode: 429,
      detail: 'slow down',
    },
  );
  assert.deepEqual(describeUpstreamError({ code: '429' }), {
    errorCode: '429',
    detail: '',
  });
  assert.deepEqual(describeUpstreamError({ type: 'overloaded_error', code: '' }), {
    errorCode: null,
    detail: 'overloaded_error',
  });
  assert.deepEqual(describeUpstreamError(7), { errorCode: null, detail: '' });
});

test('empty_choices when choices is missing, not an array or empty (basic and strict)', () => {
  for (const mode of ['basic', 'strict'] as const) {
    for (const body of [{}, { choices: null }, { choices: {} }, { choices: [] }]) {
      const verdict = checkResponseBody(json(body), null, mode);
      assert.equal(verdict.ok ? 'ok' : verdict.kind, 'empty_choices', `${mode}: ${json(body)}`);
    }
  }
});

test('strict requires useful content in the first choice; basic does not', () => {
  const empties = [
    { role: 'assistant', content: '' },
    { role: 'assistant', content: '   \n' },
    { role: 'assistant', content: null, tool_calls: [] },
  ];
  for (const message of empties) {
    const strict = checkResponseBody(completion(message), null, 'strict');
    assert.equal(strict.ok ? 'ok' : strict.kind, 'empty_content', json(message));
    assert.equal(checkResponseBody(completion(message), null, 'basic').ok, true);
  }
  const useful = [
    { content: 'hello' },
    { content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    { content: null, refusal: 'no' },
  ];
  for (const message of useful) assert.equal(checkResponseBody(completion(message), null, 'strict').ok, true);

  // Only the first choice is judged.
  const second = json({ choices: [{ message: { content: '' } }, { message: { content: 'late' } }] });
  assert.equal(checkResponseBody(second, null, 'strict').ok, false);
});

test('strict: reasoning alone is no answer, unless it was cut at its output limit', () => {
  const thoughts = (reason: string, extra: Record<string, unknown> = {}): string =>
    json({
      choices: [
        {
          index: 0,
          message: { content: '', reasoning_content: 'thinking only', ...extra },
          finish_reason: reason,
        },
      ],
    });
  for (const reason of ['stop', 'tool_calls', 'content_filter']) {
    const verdict = checkResponseBody(thoughts(reason), null, 'strict');
    assert.deepEqual(verdict.ok ? 'ok' : [verdict.kind, verdict.detail], [
      'empty_content',
      'first choice ended with reasoning alone: no text, tool call or refusal',
    ]);
    assert.equal(checkResponseBody(thoughts(reason), null, 'basic').ok, true);
  }
  assert.equal(checkResponseBody(thoughts('length'), null, 'strict').ok, true);
  assert.equal(checkResponseBody(thoughts('stop', { content: 'Hi.' }), null, 'strict').ok, true);
  assert.equal(checkResponseBody(thoughts('stop', { refusal: 'No.' }), null, 'strict').ok, true);
  const call = { id: 't', type: 'function', function: { name: 'f', arguments: '{}' } };
  assert.equal(checkResponseBody(thoughts('tool_calls', { tool_calls: [call] }), null, 'strict').ok, true);
});

test('strict: an empty answer cut at its output limit is answered only when the request says so (a probe’s)', () => {
  const cut = (reason: string, extra: Record<string, unknown> = {}): string =>
    json({ choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: reason }], ...extra });
  const asProbe = { cutAnswers: true };
  const kind = (verdict: ReturnType<typeof checkResponseBody>): string => (verdict.ok ? 'ok' : verdict.kind);
  assert.equal(kind(checkResponseBody(cut('length'), null, 'strict')), 'empty_content', 'an agent’s');
  assert.equal(kind(checkResponseBody(cut('length'), null, 'strict', asProbe)), 'ok');
  // Nothing else may be wrong: an empty answer that stopped, an error object, no choices.
  assert.equal(kind(checkResponseBody(cut('stop'), null, 'strict', asProbe)), 'empty_content');
  const withError = cut('length', { error: { message: 'overloaded' } });
  assert.equal(kind(checkResponseBody(withError, null, 'strict', asProbe)), 'error_payload');
  assert.equal(kind(checkResponseBody(json({ choices: [] }), null, 'strict', asProbe)), 'empty_choices');
});

test('strict: a think block opening the text is thoughts, and a think block alone is thoughts alone', () => {
  const body = (content: string, reason = 'stop'): string =>
    json({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: reason }] });
  // The text goes on as the model wrote it.
  const spoke = checkResponseBody(body('<think>Plan.</think>\n\nHello!'), null, 'strict');
  assert.ok(spoke.ok && spoke.rewritten === null);
  for (const alone of ['<think>Only thoughts.</think>', ' <think>Only thoughts.</think>\n\n', '<think>Cut']) {
    const verdict = checkResponseBody(body(alone), null, 'strict');
    assert.equal(verdict.ok ? 'ok' : verdict.kind, 'empty_content', alone);
    assert.equal(checkResponseBody(body(alone), null, 'basic').ok, true);
    assert.equal(checkResponseBody(body(alone, 'length'), null, 'strict').ok, true);
  }
  // Only a block that opens the text is thoughts.
  assert.equal(checkResponseBody(body('Say <think>x</think> to think.'), null, 'strict').ok, true);
});

test('finish_reason tool_calls without tool calls is rewritten to stop; otherwise the body is untouched', () => {
  const phantom = json({
    choices: [{ index: 0, message: { content: 'done' }, finish_reason: 'tool_calls' }],
  });
  const verdict = checkResponseBody(phantom, null, 'strict');
  assert.equal(verdict.ok, true);
  if (verdict.ok) {
    assert.ok(verdict.rewritten);
    assert.deepEqual(JSON.parse(verdict.rewritten), {
      choices: [{ index: 0, message: { content: 'done' }, finish_reason: 'stop' }],
    });
  }
  const real = json({
    choices: [
      { message: { tool_calls: [{ id: 't', function: { name: 'f' } }] }, finish_reason: 'tool_calls' },
    ],
  });
  const kept = checkResponseBody(real, null, 'strict');
  assert.equal(kept.ok && kept.rewritten, null);
  const plain = checkResponseBody(completion({ content: 'x' }), null, 'strict');
  assert.equal(plain.ok && plain.rewritten, null);
});

test('finish_reason stop with tool calls is rewritten to tool_calls (function_call for a legacy call)', () => {
  const call = { id: 't', type: 'function', function: { name: 'f', arguments: '{}' } };
  for (const [message, fixed] of [
    [{ content: null, tool_calls: [call] }, 'tool_calls'],
    [{ content: null, function_call: { name: 'f', arguments: '{}' } }, 'function_call'],
  ] as const) {
    const verdict = checkResponseBody(completion(message), null, 'basic');
    assert.equal(verdict.ok, true);
    if (!verdict.ok) continue;
    const rewritten = JSON.parse(verdict.rewritten ?? '{}') as { choices: { finish_reason: string }[] };
    assert.equal(rewritten.choices[0]?.finish_reason, fixed);
    assert.equal((verdict.body.choices as { finish_reason: string }[])[0]?.finish_reason, fixed);
  }
});

test('strict: a request that forces a tool call fails an answer without a call to a forced tool', () => {
  const call = (name: string) => ({
    content: null,
    tool_calls: [{ id: 't', type: 'function', function: { name, arguments: '{}' } }],
  });
  const tools = new Set(['Read', 'Write']);
  const kind = (
    message: unknown,
    forced: ReadonlySet<string> | null,
    mode: 'strict' | 'basic' = 'strict',
  ) => {
    const verdict = checkResponseBody(completion(message), null, mode, { tools, forced });
    return verdict.ok ? 'ok' : verdict.kind;
  };
  assert.equal(kind({ content: 'I would read it.' }, tools), 'tool_choice_ignored');
  assert.equal(kind(call('Write'), new Set(['Read'])), 'tool_choice_ignored');
  assert.equal(kind(call('Read'), new Set(['Read'])), 'ok');
  assert.equal(kind(call('Write'), tools), 'ok');
  assert.equal(kind({ content: 'I would read it.' }, null), 'ok', 'nothing forced');
  assert.equal(kind({ content: 'I would read it.' }, tools, 'basic'), 'ok', 'strict mode only');
  // An empty answer is empty first; an unusable call is unusable first.
  assert.equal(kind({ content: '' }, tools), 'empty_content');
  assert.equal(kind(call('Delete'), tools), 'invalid_tool_call');
});

test('usage is read when its token counts are numbers', () => {
  const body = completion(
    { content: 'x' },
    { usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } },
  );
  const verdict = checkResponseBody(body, 'application/json', 'strict');
  assert.deepEqual(verdict.ok && verdict.usage, { promptTokens: 12, completionTokens: 3 });
  assert.deepEqual(readUsage({ usage: { prompt_tokens: 4 } }), { promptTokens: 4, completionTokens: null });
  assert.equal(readUsage({ usage: { prompt_tokens: '4' } }), null);
  assert.equal(readUsage({ usage: null }), null);
  assert.deepEqual(readUsage({ x_groq: { usage: { prompt_tokens: 1, completion_tokens: 2 } } }), {
    promptTokens: 1,
    completionTokens: 2,
  });
});

test('a BOM before JSON is tolerated', () => {
  assert.equal(checkResponseBody('\uFEFF' + completion({ content: 'x' }), null, 'strict').ok, true);
});

test('a parsed completion takes the same rules as the body it came from, and is the object handed back', () => {
  const cases: [Record<string, unknown>, string | null][] = [
    [{ error: { message: 'busy', code: 429 } }, 'error_payload'],
    [{ choices: [] }, 'empty_choices'],
    [{ choices: [{ message: { content: ' ' }, finish_reason: 'stop' }] }, 'empty_content'],
    [{ choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] }, null],
  ];
  for (const [body, kind] of cases) {
    const verdict = checkCompletion(body, 'strict');
    const fromText = checkResponseBody(json(body), null, 'strict');
    assert.equal(verdict.ok ? null : verdict.kind, kind);
    assert.equal(fromText.ok ? null : fromText.kind, kind);
    if (verdict.ok) assert.equal(verdict.body, body);
  }
  const phantom = { choices: [{ message: { content: 'done' }, finish_reason: 'tool_calls' }] };
  const fixed = checkCompletion(phantom, 'off');
  assert.equal(
    fixed.ok && fixed.rewritten,
    json({ choices: [{ message: { content: 'done' }, finish_reason: 'stop' }] }),
  );
});
