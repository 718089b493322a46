import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrlProblem } from './base-url.js';
import { validateConfig } from './config-store.js';

const SECRET = 's3cret-canary';

test('a base URL the router can append its paths to is taken', () => {
  for (const url of [
    'https://api.groq.com/openai/v1',
    'http://127.0.0.1:8000/v1',
    'https://gateway.example/v1/accounts/a%3Fb',
  ])
    assert.equal(baseUrlProblem(url), null, url);
});

test('a query, a fragment or a user name and password is refused, in words that never quote the URL', () => {
  const cases: [string, RegExp][] = [
    [`https://user:${SECRET}@api.example/v1`, /user name or password.*apiKey.*headers/],
    [`https://${SECRET}@api.example/v1`, /user name or password/],
    [`https://api.example/v1?key=${SECRET}`, /query.*\/chat\/completions.*apiKey.*headers/],
    ['https://api.example/v1?', /query/],
    [`https://api.example/v1#${SECRET}`, /fragment/],
    ['https://api.example/v1#', /fragment/],
    ['ftp://api.example/v1', /^must be an http\(s\) URL$/],
    ['not a url', /^must be an http\(s\) URL$/],
  ];
  for (const [url, words] of cases) {
    const problem = baseUrlProblem(url) ?? '';
    assert.match(problem, words, url);
    assert.ok(!problem.includes(SECRET) && !problem.includes('api.example'), url);
  }
});

test("the config's check refuses such a base URL at its path, and names nothing of it", () => {
  const checked = validateConfig({
    providers: {
      mine: { baseUrl: `https://user:${SECRET}@api.example/v1`, apiKey: 'sk-a', models: ['m1'] },
      groq: { baseUrl: `https://api.groq.com/openai/v1?key=${SECRET}` },
    },
  });
  assert.ok(!checked.ok);
  assert.deepEqual(
    checked.issues.map((issue) => issue.path),
    ['providers.mine.baseUrl', 'providers.groq.baseUrl'],
  );
  assert.ok(!JSON.stringify(checked.issues).includes(SECRET));
});
