/**
 * What a `tool_result`'s parts become in the text of its `tool` message: text documents their text; PDFs,
 * files of Anthropic's Files API and long parts of unknown kinds a short note that they were left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateMessagesRequest } from './anthropic-request.js';
import { MAX_PASTED_PART } from './anthropic-content.js';

/** The chat messages of a conversation whose last turn is a tool result of `parts`. */
function afterToolResult(parts: unknown[]): unknown[] {
  const result = translateMessagesRequest({
    model: 'fcm',
    max_tokens: 1000,
    messages: [
      { role: 'user', content: 'Read the report' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Fetch', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: parts }] },
    ],
  });
  if (!result.ok) assert.fail(`refused: ${result.message}`);
  return result.chat.messages.slice(2);
}

/** The text of the tool message for `parts`. */
const toolText = (parts: unknown[]): unknown => (afterToolResult(parts)[0] as { content: unknown }).content;

const pdfData = Buffer.alloc(30_000, 7).toString('base64');

test('text and content documents become their text, after their title', () => {
  const text = toolText([
    { type: 'text', text: 'report.txt' },
    {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'Sales rose.' },
      title: 'Q3',
    },
    { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'Costs fell.' }] } },
  ]);
  assert.equal(text, 'report.txt\nQ3\n\nSales rose.\nCosts fell.');
});

test('a PDF (base64 or url), a file of the Files API and an unreadable image are named, not pasted', () => {
  const messages = afterToolResult([
    { type: 'text', text: 'report.pdf' },
    { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdfData } },
    { type: 'document', source: { type: 'url', url: 'https://example.com/r.pdf' } },
    { type: 'document', source: { type: 'file', file_id: 'file_011' } },
    { type: 'image', source: { type: 'file', file_id: 'file_012' } },
    { type: 'image', source: { type: 'base64', data: 'QQ==' } },
  ]);
  assert.deepEqual(messages, [
    {
      role: 'tool',
      tool_call_id: 't1',
      content: [
        'report.pdf',
        '[a PDF document was left out: this model takes text only]',
        '[a PDF document was left out: this model takes text only]',
        "[a document uploaded to Anthropic's Files API was left out: only Anthropic can fetch it]",
        "[an image uploaded to Anthropic's Files API was left out: only Anthropic can fetch it]",
        '[an image was left out: its source could not be read]',
      ].join('\n'),
    },
  ]);
});

test('a part of an unknown kind is pasted as JSON while short, else named', () => {
  const small = { type: 'search_result', title: 'Docs', source: 'https://example.com' };
  assert.equal(toolText([small]), JSON.stringify(small));
  const large = { type: 'search_result', title: 'Docs', body: 'x'.repeat(MAX_PASTED_PART) };
  assert.equal(toolText([large]), '[a search_result part was left out: it is too long to show]');
});
