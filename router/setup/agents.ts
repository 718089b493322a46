/** The agents `fcm-router setup` writes a config for, and the ones it only prints a snippet for. */
import path from 'node:path';
import { applyCodex, stripCodex } from './codex-toml.js';
import { applyClaude, applyOpencode, stripClaude, stripOpencode } from './json-agents.js';
import { formatSettings, sameJson } from './json-settings.js';
import { MODEL, PLACEHOLDER_KEY, type RouterTarget } from './router-target.js';

/** One agent's config file and how our part of it is set and removed. */
export interface AgentEditor {
  id: string;
  name: string;
  /** The config file, from the environment (HOME and the agent's own overrides). */
  file(env: NodeJS.ProcessEnv, home: string): string;
  /** The file's text with our part set; throws a message naming the file when it cannot be read as such. */
  apply(text: string | null, file: string, target: RouterTarget): string;
  /** The file's text without our part. */
  strip(text: string, file: string): string;
  /** Whether two texts hold the same apart from our part. */
  sameApartFromOurs(a: string, b: string, file: string): boolean;
}

const claude: AgentEditor = {
  id: 'claude-code',
  name: 'Claude Code',
  file: (env, home) => path.join(env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude'), 'settings.json'),
  apply: applyClaude,
  strip: (text, file) => formatSettings(stripClaude(text, file), text),
  sameApartFromOurs: (a, b, file) => sameJson(stripClaude(a, file), stripClaude(b, file)),
};

const codex: AgentEditor = {
  id: 'codex',
  name: 'Codex',
  file: (env, home) => path.join(env.CODEX_HOME ?? path.join(home, '.codex'), 'config.toml'),
  apply: (text, _file, target) => applyCodex(text, target),
  strip: (text) => stripCodex(text),
  sameApartFromOurs: (a, b) => stripCodex(a, true) === stripCodex(b, true),
};

const opencode: AgentEditor = {
  id: 'opencode',
  name: 'OpenCode',
  file: (env, home) =>
    path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'opencode', 'opencode.json'),
  apply: applyOpencode,
  strip: (text, file) => formatSettings(stripOpencode(text, file), text),
  sameApartFromOurs: (a, b, file) => sameJson(stripOpencode(a, file, true), stripOpencode(b, file, true)),
};

export const AGENT_EDITORS: readonly AgentEditor[] = [claude, codex, opencode];

/** Agents set up by hand for now: where the snippet goes and the snippet. */
export const SNIPPET_ONLY: Record<string, (target: RouterTarget) => string> = {
  'qwen-code': (target) =>
    [
      'Qwen Code: in the shell (or ~/.qwen/.env):',
      `export OPENAI_BASE_URL=${target.origin}/v1`,
      `export OPENAI_API_KEY=${PLACEHOLDER_KEY}`,
      `export OPENAI_MODEL=${MODEL}`,
    ].join('\n'),
  continue: (target) =>
    [
      'Continue: add to ~/.continue/config.yaml:',
      'models:',
      '  - name: fcm-router',
      '    provider: openai',
      `    model: ${MODEL}`,
      `    apiBase: ${target.origin}/v1`,
      `    apiKey: ${PLACEHOLDER_KEY}`,
      '    roles: [chat, edit, apply]',
    ].join('\n'),
};

/** Every agent name `setup` accepts. */
export const SETUP_AGENTS: readonly string[] = [
  ...AGENT_EDITORS.map((agent) => agent.id),
  ...Object.keys(SNIPPET_ONLY),
];
