import { describe, expect, test } from 'vitest';
import { configText, placeIssues, readConfigText } from './config-json.js';
import { locatePath } from './json-locate.js';

const TEXT = configText({
  providers: { groq: { apiKey: '********', baseUrl: 'nope' } },
  sets: { main: ['groq/a', 'groq/b'] },
  router: { failover: { maxAttempts: 99 } },
});

function lineText(text: string, line: number): string {
  return text.split('\n')[line - 1] ?? '';
}

describe('config JSON text', () => {
  test('an issue is placed on the line of the value its path names', () => {
    const [attempts, second, missing, root] = placeIssues(TEXT, [
      { path: 'router.failover.maxAttempts', message: 'at most 20 attempts' },
      { path: 'sets.main.1', message: 'groq has no model "b"' },
      { path: 'router.failover.totalBudgetMs', message: 'required' },
      { path: '(root)', message: 'must be a JSON object' },
    ]);
    expect(lineText(TEXT, attempts?.line ?? 0)).toBe('      "maxAttempts": 99');
    expect(TEXT.slice(attempts?.from, attempts?.to)).toBe('"maxAttempts": 99');
    expect(TEXT.slice(second?.from, second?.to)).toBe('"groq/b"');
    // A key that is not there: the object that should hold it.
    expect(lineText(TEXT, missing?.line ?? 0)).toBe('    "failover": {');
    expect(root?.line).toBe(1);
    expect(attempts?.message).toBe('at most 20 attempts');
  });

  test('a key given twice is found where JSON.parse takes it from: the last one', () => {
    const text = '{ "a": 1,\n  "a": 2 }';
    expect(text.slice(locatePath(text, 'a').from, locatePath(text, 'a').to)).toBe('"a": 2');
  });

  test('a name written twice in one object is refused at its second place, since a save would drop the first', () => {
    const text =
      '{\n  "providers": {\n    "groq": { "apiKey": "k1" },\n    "groq": { "enabled": true }\n  }\n}\n';
    const read = readConfigText(text);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problem.line).toBe(4);
    expect(text.slice(read.problem.from, read.problem.to)).toBe('"groq"');
    expect(read.problem.message).toMatch(/^"groq" is written twice in one object \(first on line 3\)/);
    // The same name in two objects is no problem.
    expect(readConfigText('{ "a": { "x": 1 }, "b": { "x": 2 } }')).toMatchObject({ ok: true });
  });

  test('text that is not JSON says where and why, in words without the parser’s position', () => {
    const text = '{\n  "sets": { "main": [] },\n  "activeSet": "main"\n  "router": {}\n}\n';
    const read = readConfigText(text);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problem.line).toBe(4);
    expect(read.problem.message).toMatch(/^not valid JSON: /);
    expect(read.problem.message).not.toMatch(/position|line \d/);
    expect(readConfigText('  ')).toMatchObject({
      ok: false,
      problem: { message: 'not valid JSON: the editor is empty' },
    });
    expect(readConfigText(TEXT)).toMatchObject({ ok: true });
  });
});
