import { expect, test } from 'vitest';
import { applyCodex } from '../../../router/setup/codex-toml.js';
import { agentSnippets } from './agent-snippets.js';

test('every agent snippet points at the router and names the model', () => {
  const snippets = agentSnippets('http://127.0.0.1:19280/v1');
  expect(snippets.map((s) => s.name)).toEqual([
    'Claude Code',
    'Codex',
    'OpenCode',
    'Qwen Code',
    'Cline',
    'Aider',
    'Continue',
    'curl',
  ]);
  for (const snippet of snippets) {
    expect(snippet.text).toContain('http://127.0.0.1:19280');
    expect(snippet.text).toMatch(/\bfcm\b/);
  }
  const byId = new Map(snippets.map((snippet) => [snippet.id, snippet.text]));
  // Claude Code appends /v1/messages itself: its base URL is the origin.
  expect(byId.get('claude-code')).toContain('ANTHROPIC_BASE_URL=http://127.0.0.1:19280\n');
  // What `fcm-router setup claude-code` writes: an API key would make Claude Code ask before using it.
  expect(byId.get('claude-code')).toContain('export ANTHROPIC_AUTH_TOKEN=fcm-local\n');
  expect(byId.get('claude-code')).not.toContain('ANTHROPIC_API_KEY');
  expect(byId.get('codex')).toContain('base_url = "http://127.0.0.1:19280/v1"');
  expect(byId.get('codex')).toContain('wire_api = "responses"');
  const opencode = JSON.parse(byId.get('opencode') ?? '') as { model: string };
  expect(opencode.model).toBe('fcm/fcm');
  expect(byId.get('curl')).toContain('http://127.0.0.1:19280/v1/chat/completions');
  // Continue's config.yaml is refused without a name and a version.
  expect(byId.get('continue')).toMatch(/^name: .+\nversion: .+\n/);
});

test('with the set’s window known, every agent that reads one is told it', () => {
  const byId = new Map(
    agentSnippets('http://127.0.0.1:19280/v1', 'fcm', 65_000).map((snippet) => [snippet.id, snippet.text]),
  );
  expect(byId.get('claude-code')).toContain('export CLAUDE_CODE_AUTO_COMPACT_WINDOW=65000\n');
  expect(byId.get('codex')).toContain('model_context_window = 65000\n');
  const opencode = JSON.parse(byId.get('opencode') ?? '') as {
    provider: { fcm: { models: { fcm: { limit?: unknown } } } };
  };
  // A quarter of the window for the answer, as `fcm-router setup opencode` writes it.
  expect(opencode.provider.fcm.models.fcm.limit).toEqual({ context: 65_000, output: 16_250 });
  const qwen = JSON.parse(byId.get('qwen-code') ?? '') as {
    env: Record<string, string>;
    modelProviders: { openai: { envKey: string; generationConfig?: unknown }[] };
  };
  expect(qwen.modelProviders.openai[0]?.generationConfig).toEqual({ contextWindowSize: 65_000 });
  expect(qwen.env[qwen.modelProviders.openai[0]?.envKey ?? '']).toBe('fcm-local');
  expect(byId.get('cline')).toMatch(/\nContext Window Size: 65000$/);
  expect(byId.get('continue')).toMatch(/\n {4}defaultCompletionOptions:\n {6}contextLength: 65000$/);
  // Aider's window comes from a metadata file of the snippet's own, named on the command line.
  const [write, json, end, command] = (byId.get('aider') ?? '').split('\n');
  expect(write).toBe("cat > ~/.aider.fcm-router.metadata.json <<'EOF'");
  expect(JSON.parse(json ?? '')).toEqual({
    'openai/fcm': {
      max_input_tokens: 65_000,
      input_cost_per_token: 0,
      output_cost_per_token: 0,
      litellm_provider: 'openai',
      mode: 'chat',
    },
  });
  expect(end).toBe('EOF');
  expect(command).toBe(
    'aider --openai-api-base http://127.0.0.1:19280/v1 --openai-api-key fcm-local --model openai/fcm' +
      ' --model-metadata-file ~/.aider.fcm-router.metadata.json',
  );
  const unknown = new Map(agentSnippets('http://127.0.0.1:19280/v1').map((s) => [s.id, s.text]));
  expect(unknown.get('claude-code')).not.toContain('AUTO_COMPACT');
  expect(unknown.get('codex')).not.toContain('model_context_window');
  expect(unknown.get('opencode')).not.toContain('limit');
  expect(unknown.get('qwen-code')).not.toContain('contextWindowSize');
  expect(unknown.get('continue')).not.toContain('contextLength');
  expect(unknown.get('cline')).not.toContain('Context Window');
  expect(unknown.get('aider')).not.toContain('metadata');
});

test('the Codex snippet is what `fcm-router setup codex` writes: no env_key, no key to export', () => {
  const codex = agentSnippets('http://127.0.0.1:19280/v1', 'fcm', 65_000).find((s) => s.id === 'codex');
  const written = applyCodex(null, { origin: 'http://127.0.0.1:19280', contextWindow: 65_000 });
  expect(`${codex?.text ?? ''}\n`).toBe(written);
  expect(codex?.where).not.toContain('FCM_ROUTER_KEY');
});
