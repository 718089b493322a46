import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HTML_PREFIXES } from './html-start.js';
import { checkResponseBody } from './response-gate.js';
import { StreamTracker } from './stream-tracker.js';

/** The whole body through the response gate: the failure kind, or `served`. */
function asBody(text: string): string {
  const verdict = checkResponseBody(text, 'application/json', 'basic');
  return verdict.ok ? 'served' : verdict.kind;
}

/** The same text as a stream's first chunk and its end: the failure kind, or `served`. */
function asStream(text: string): string {
  const tracker = new StreamTracker({ holdLimitBytes: 262_144 });
  const signal = tracker.hold(new TextEncoder().encode(text));
  if (signal.type === 'failure') return signal.kind;
  return tracker.end().failure?.kind ?? 'served';
}

test('both gates know an HTML page by the same list of openings', () => {
  const pages = [
    ...HTML_PREFIXES.map((prefix) => `${prefix.toUpperCase()}>`),
    '<!DOCTYPE html><html><body>Maintenance</body></html>',
    '<!DOCTYPE\nhtml>',
    '<!doctype  html public>',
    '\ufeff  <Html lang="en">',
    '\n<head><title>502</title>',
  ];
  for (const page of pages) {
    assert.equal(asBody(page), 'html_maintenance', `body ${JSON.stringify(page)}`);
    assert.equal(asStream(page), 'html_maintenance', `stream ${JSON.stringify(page)}`);
  }
  for (const other of ['<?xml version="1.0"?>', '<h1>', '<!-- comment -->']) {
    assert.equal(asBody(other), 'invalid_json', `body ${JSON.stringify(other)}`);
    assert.equal(asStream(other), 'empty_stream', `stream ${JSON.stringify(other)}`);
  }
});
