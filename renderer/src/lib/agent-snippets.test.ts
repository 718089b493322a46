import { expect, test } from 'vitest';
import { agentSnippets } from './agent-snippets.js';

test('every agent snippet points at the base URL and names the model', () => {
  const snippets = agentSnippets('http://127.0.0.1:19280/v1');
  expect(snippets.map((s) => s.name)).toEqual(['OpenCode', 'Cline', 'Aider', 'Continue', 'curl']);
  for (const snippet of snippets) {
    expect(snippet.text).toContain('http://127.0.0.1:19280/v1');
    expect(snippet.text).toMatch(/\bfcm\b/);
  }
  const opencode = JSON.parse(snippets[0]?.text ?? '') as { model: string };
  expect(opencode.model).toBe('fcm/fcm');
  expect(snippets[4]?.text).toContain('http://127.0.0.1:19280/v1/chat/completions');
});
