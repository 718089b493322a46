/** Copy-ready setup for the coding agents people point at the router. */

export interface AgentSnippet {
  id: string;
  name: string;
  /** Where the text goes, e.g. the config file. */
  where: string;
  text: string;
}

/** Any value works as the key: the router holds the providers' keys and ignores the agent's. */
export const PLACEHOLDER_KEY = 'fcm-local';

/** Where the snippets point and what they name. */
interface SnippetTarget {
  baseUrl: string;
  model: string;
  contextWindow: number | null;
}

function claudeCode({ baseUrl, model, contextWindow }: SnippetTarget): AgentSnippet {
  // Claude Code appends /v1/messages itself: its base URL is the origin.
  const origin = baseUrl.replace(/\/v1\/?$/, '');
  return {
    id: 'claude-code',
    name: 'Claude Code',
    where: 'shell',
    text: [
      `export ANTHROPIC_BASE_URL=${origin}`,
      // A token, not ANTHROPIC_API_KEY: Claude Code asks before it uses an API key found in the environment.
      `export ANTHROPIC_AUTH_TOKEN=${PLACEHOLDER_KEY}`,
      `export ANTHROPIC_MODEL=${model}`,
      'export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
      ...(contextWindow === null ? [] : [`export CLAUDE_CODE_AUTO_COMPACT_WINDOW=${contextWindow}`]),
      'claude',
    ].join('\n'),
  };
}

function codex({ baseUrl, model, contextWindow }: SnippetTarget): AgentSnippet {
  return {
    id: 'codex',
    name: 'Codex',
    // No env_key, as `fcm-router setup codex` writes it: the router needs no key from Codex.
    where: '~/.codex/config.toml (then run codex)',
    text: [
      `model = "${model}"`,
      'model_provider = "fcm"',
      ...(contextWindow === null ? [] : [`model_context_window = ${contextWindow}`]),
      '',
      '[model_providers.fcm]',
      'name = "fcm-router"',
      `base_url = "${baseUrl}"`,
      'wire_api = "responses"',
    ].join('\n'),
  };
}

/**
 * OpenCode compacts once a turn reaches its model's `limit.context` less `limit.output`, and asks for
 * `limit.output` as `max_tokens` (32 000 at most, which it asks without a limit): a quarter of the window for
 * the answer, as `fcm-router setup opencode` writes it.
 */
function opencodeLimit(window: number): { context: number; output: number } {
  return { context: window, output: Math.min(32_000, Math.floor(window / 4)) };
}

function opencode({ baseUrl, model, contextWindow }: SnippetTarget): AgentSnippet {
  const limit = contextWindow === null ? {} : { limit: opencodeLimit(contextWindow) };
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      fcm: {
        npm: '@ai-sdk/openai-compatible',
        name: 'fcm-router',
        options: { baseURL: baseUrl, apiKey: PLACEHOLDER_KEY },
        models: { [model]: { name: `${model} (fcm-router)`, ...limit } },
      },
    },
    model: `fcm/${model}`,
  };
  return { id: 'opencode', name: 'OpenCode', where: 'opencode.json', text: JSON.stringify(config, null, 2) };
}

function qwenCode({ baseUrl, model, contextWindow }: SnippetTarget): AgentSnippet {
  const window = contextWindow === null ? {} : { generationConfig: { contextWindowSize: contextWindow } };
  // A whole settings file: Qwen Code reads the key from the variable its provider entry names.
  const settings = {
    $version: 4,
    env: { FCM_ROUTER_KEY: PLACEHOLDER_KEY },
    modelProviders: {
      openai: [{ id: model, name: 'fcm-router', baseUrl, envKey: 'FCM_ROUTER_KEY', ...window }],
    },
    security: { auth: { selectedType: 'openai' } },
    model: { name: model },
  };
  return {
    id: 'qwen-code',
    name: 'Qwen Code',
    where: '~/.qwen/settings.json, as a new file (fcm-router setup qwen-code merges into yours)',
    text: JSON.stringify(settings, null, 2),
  };
}

function cline({ baseUrl, model, contextWindow }: SnippetTarget): AgentSnippet {
  return {
    id: 'cline',
    name: 'Cline',
    where: 'Cline settings → API Provider',
    text: [
      'API Provider: OpenAI Compatible',
      `Base URL:     ${baseUrl}`,
      `API Key:      ${PLACEHOLDER_KEY}`,
      `Model ID:     ${model}`,
      // Under the provider's Model Configuration.
      ...(contextWindow === null ? [] : [`Context Window Size: ${contextWindow}`]),
    ].join('\n'),
  };
}

/** Where the Aider snippet keeps the set's window: a file of its own, so no file of the user's is replaced. */
const AIDER_METADATA_FILE = '~/.aider.fcm-router.metadata.json';

/**
 * Aider learns a model's window only from a model-metadata file (litellm's format); it loads the one named
 * by `--model-metadata-file` after its own. With the window it sizes its chat history and repo map to it,
 * warns before a turn outgrows it, and counts the free models' cost as zero.
 */
function aider({ baseUrl, model, contextWindow }: SnippetTarget): AgentSnippet {
  const command = `aider --openai-api-base ${baseUrl} --openai-api-key ${PLACEHOLDER_KEY} --model openai/${model}`;
  const metadata = {
    [`openai/${model}`]: {
      max_input_tokens: contextWindow,
      input_cost_per_token: 0,
      output_cost_per_token: 0,
      litellm_provider: 'openai',
      mode: 'chat',
    },
  };
  const text =
    contextWindow === null
      ? command
      : [
          `cat > ${AIDER_METADATA_FILE} <<'EOF'`,
          JSON.stringify(metadata),
          'EOF',
          `${command} --model-metadata-file ${AIDER_METADATA_FILE}`,
        ].join('\n');
  return { id: 'aider', name: 'Aider', where: 'shell', text };
}

function continueDev({ baseUrl, model, contextWindow }: SnippetTarget): AgentSnippet {
  return {
    id: 'continue',
    name: 'Continue',
    where: '~/.continue/config.yaml, as a new file (fcm-router setup continue merges into yours)',
    // A whole file: Continue refuses a config.yaml without its name and version.
    text: [
      'name: Local Config',
      'version: 1.0.0',
      'schema: v1',
      'models:',
      '  - name: fcm-router',
      '    provider: openai',
      `    model: ${model}`,
      `    apiBase: ${baseUrl}`,
      `    apiKey: ${PLACEHOLDER_KEY}`,
      '    roles: [chat, edit, apply]',
      ...(contextWindow === null
        ? []
        : ['    defaultCompletionOptions:', `      contextLength: ${contextWindow}`]),
    ].join('\n'),
  };
}

function curl({ baseUrl, model }: SnippetTarget): AgentSnippet {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello' }] });
  return {
    id: 'curl',
    name: 'curl',
    where: 'shell',
    text: `curl ${baseUrl}/chat/completions -H 'content-type: application/json' -H 'authorization: Bearer ${PLACEHOLDER_KEY}' -d '${body}'`,
  };
}

/**
 * Snippets for Claude Code, Codex, OpenCode, Qwen Code, Cline, Aider, Continue and curl, all pointing at
 * `baseUrl` (ending in `/v1`; Claude Code takes the origin without it). With the set's `contextWindow` known,
 * every agent that reads a window is told it (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, `model_context_window`,
 * OpenCode's `limit`, `contextWindowSize`, Cline's Context Window Size, Aider's model metadata,
 * `contextLength`), so they compact in time instead of assuming a window the models do not have.
 */
export function agentSnippets(
  baseUrl: string,
  model = 'fcm',
  contextWindow: number | null = null,
): AgentSnippet[] {
  const target = { baseUrl, model, contextWindow };
  return [claudeCode, codex, opencode, qwenCode, cline, aider, continueDev, curl].map((snippet) =>
    snippet(target),
  );
}
