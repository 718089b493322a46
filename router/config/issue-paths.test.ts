import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, type ConfigIssue } from './schema.js';

const KEY = 'sk-pasted-canary-7c21';

function issuesOf(config: unknown): ConfigIssue[] {
  const result = parseConfig(config);
  return result.ok ? [] : result.issues;
}

test('a name that fails its own check is a numbered placeholder in every path through it', () => {
  const issues = issuesOf({
    providers: {
      [`groq ${KEY}`]: { baseUrl: 'nope' },
      alpha: { headers: { [`Authorization: Bearer ${KEY}`]: 'a\nb', 'x-api-key:AIza-canary-pasted': 'v' } },
    },
  });
  assert.deepEqual(issues, [
    { path: 'providers.<invalid name #1>', message: 'provider id: letters, digits, . _ -' },
    { path: 'providers.<invalid name #1>.baseUrl', message: 'must be an http(s) URL' },
    { path: 'providers.alpha.headers.<invalid name #2>', message: issues[2]?.message },
    {
      path: 'providers.alpha.headers.<invalid name #2>',
      message: 'header values: printable ASCII only, no line breaks',
    },
    { path: 'providers.alpha.headers.<invalid name #3>', message: issues[4]?.message },
  ]);
  assert.match(issues[2]?.message ?? '', /^header name is not an HTTP header name/);
  assert.ok(!JSON.stringify(issues).includes('canary'), 'no issue quotes a bad name');
});

test('good names stay readable in issue paths: ids, set names, header names, model ids and reserved names', () => {
  const issues = issuesOf({
    providers: {
      openrouter: {
        headers: { 'X-Title': 'a\nb', 'Content-Length': '5' },
        modelFit: { 'meta-llama/llama-3.3-70b-instruct:free': { contextWindow: 1 } },
      },
      __proto__x: { baseUrl: 'nope' },
    },
    sets: { 'main.v2': ['nope'] },
    activeSet: 'main.v2',
  });
  const paths = issues.map((issue) => issue.path);
  assert.deepEqual(paths, [
    'providers.openrouter.modelFit.meta-llama/llama-3.3-70b-instruct:free.contextWindow',
    'providers.openrouter.headers.X-Title',
    'providers.openrouter.headers.Content-Length',
    'providers.__proto__x.baseUrl',
    'sets.main.v2.0',
  ]);
  assert.deepEqual(
    issuesOf(JSON.parse('{"providers": {"__proto__": {}}}')).map((issue) => issue.path),
    ['providers.__proto__'],
  );
});

test('an unknown key is quoted only when it is a plain identifier; a model id with a blank is not quoted', () => {
  const issues = issuesOf({
    providers: {
      alpha: {
        base_url: 'x',
        [`Authorization: Bearer ${KEY}`]: 'x',
        [`${KEY}.x`]: 'x',
        modelLimits: { [`a ${KEY}`]: { rpm: 0 } },
      },
    },
  });
  assert.deepEqual(
    issues.map((issue) => issue.path),
    [
      'providers.alpha.modelLimits.<invalid name #1>.rpm',
      'providers.alpha.base_url',
      'providers.alpha.<invalid name #2>',
      'providers.alpha.<invalid name #3>',
    ],
  );
});

test('a set named no set is not told the sets whose names fail their check', () => {
  const issues = issuesOf({ sets: { [`Bearer ${KEY}`]: ['a/b'], main: ['a/b'] }, activeSet: 'other' });
  assert.deepEqual(issues, [
    { path: 'sets.<invalid name #1>', message: 'set name: letters, digits, . _ -' },
    { path: 'activeSet', message: 'names no set (the sets are: main)' },
  ]);
  const only = issuesOf({ sets: { [`Bearer ${KEY}`]: ['a/b'] }, activeSet: 'other' });
  assert.deepEqual(only[1], { path: 'activeSet', message: 'names no set' });
});
