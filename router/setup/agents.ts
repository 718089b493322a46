/** The agents `fcm-router setup` writes a config for: where each one's file is and how our part is edited. */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { applyCodex } from './codex-toml.js';
import { putBackCodex, sameCodexApartFromOurs, stripCodex } from './codex-toml-undo.js';
import { applyContinue, sameContinueApartFromOurs, stripContinue } from './continue-yaml.js';
import {
  applyClaude,
  applyOpencode,
  putBackClaude,
  putBackOpencode,
  stripClaude,
  stripOpencode,
} from './json-agents.js';
import { formatSettings, parseSettings, sameJson, type JsonObject, type PutBack } from './json-settings.js';
import { applyQwen, putBackQwen, stripQwen } from './qwen-settings.js';
import type { RouterTarget } from './router-target.js';

/** One agent's config file and how our part of it is set and removed. */
export interface AgentEditor {
  id: string;
  name: string;
  /** The config file, from the environment (HOME and the agent's own overrides). */
  file(env: NodeJS.ProcessEnv, home: string): string;
  /** The file's text with our part set; throws a message naming the file when it cannot be read as such. */
  apply(text: string | null, file: string, target: RouterTarget): string;
  /** The file's text without our part; the text itself when nothing of ours is in it. */
  strip(text: string, file: string): string;
  /** Whether two texts hold the same apart from our part. */
  sameApartFromOurs(a: string, b: string, file: string): boolean;
  /**
   * The file's text without our part, each value setup had replaced given back from `saved` (the backup
   * from before setup), with the names of the keys given back (the text itself when nothing of ours is in
   * it); null when `saved` cannot be read as the agent's file.
   */
  putBack(text: string, saved: string, file: string): { text: string; broughtBack: string[] } | null;
  /** Why setting up must not write `file` now (another file of the agent's stands in the way), or null. */
  refusal?(file: string): Promise<string | null>;
}

/**
 * `settings` written the way `text` was, or `text` itself when they hold the same: a file with nothing of
 * ours in it is left byte for byte, not re-indented, so undo sees nothing to do.
 */
function settingsText(settings: JsonObject, text: string, file: string): string {
  return sameJson(settings, parseSettings(text, file)) ? text : formatSettings(settings, text);
}

/**
 * `strip`, `sameApartFromOurs` and `putBack` of an agent whose file is JSON settings, from the function that
 * takes our part out (with `anyModel`, the model setup sets whatever it names: two versions are compared
 * without it) and the one that gives back what the backup held.
 */
function jsonSettingsEdits(
  stripOurs: (text: string, file: string, anyModel?: boolean) => JsonObject,
  putBackOurs: (settings: JsonObject, saved: JsonObject) => PutBack,
): Pick<AgentEditor, 'strip' | 'sameApartFromOurs' | 'putBack'> {
  return {
    strip: (text, file) => settingsText(stripOurs(text, file), text, file),
    sameApartFromOurs: (a, b, file) => sameJson(stripOurs(a, file, true), stripOurs(b, file, true)),
    putBack: (text, saved, file) => {
      let before: JsonObject;
      try {
        before = parseSettings(saved, file);
      } catch {
        return null;
      }
      const { settings, broughtBack } = putBackOurs(parseSettings(text, file), before);
      return { text: settingsText(settings, text, file), broughtBack };
    },
  };
}

const claude: AgentEditor = {
  id: 'claude-code',
  name: 'Claude Code',
  file: (env, home) => path.join(env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude'), 'settings.json'),
  apply: applyClaude,
  ...jsonSettingsEdits(stripClaude, putBackClaude),
};

const codex: AgentEditor = {
  id: 'codex',
  name: 'Codex',
  file: (env, home) => path.join(env.CODEX_HOME ?? path.join(home, '.codex'), 'config.toml'),
  apply: (text, file, target) => applyCodex(text, target, file),
  strip: (text, file) => stripCodex(text, file),
  sameApartFromOurs: sameCodexApartFromOurs,
  putBack: putBackCodex,
};

const opencode: AgentEditor = {
  id: 'opencode',
  name: 'OpenCode',
  file: (env, home) =>
    path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'opencode', 'opencode.json'),
  apply: applyOpencode,
  ...jsonSettingsEdits(stripOpencode, putBackOpencode),
  // OpenCode merges opencode.jsonc over opencode.json: what the jsonc sets would win over what setup writes.
  refusal: async (file) => {
    const jsonc = path.join(path.dirname(file), 'opencode.jsonc');
    return (await exists(jsonc))
      ? `${jsonc} holds OpenCode's settings and is read after ${path.basename(file)}, so its settings win; fcm-router cannot edit it safely (it may hold comments): add the settings to it by hand, as docs/agents.md shows; nothing was changed`
      : null;
  },
};

const qwen: AgentEditor = {
  id: 'qwen-code',
  name: 'Qwen Code',
  file: (env, home) => path.join(env.QWEN_HOME ?? path.join(home, '.qwen'), 'settings.json'),
  apply: applyQwen,
  ...jsonSettingsEdits(stripQwen, putBackQwen),
};

const continueDev: AgentEditor = {
  id: 'continue',
  name: 'Continue',
  file: (env, home) => path.join(env.CONTINUE_GLOBAL_DIR ?? path.join(home, '.continue'), 'config.yaml'),
  apply: applyContinue,
  strip: stripContinue,
  sameApartFromOurs: sameContinueApartFromOurs,
  // Setup only adds its own item to `models`: it replaced nothing there is to give back.
  putBack: (text, _saved, file) => ({ text: stripContinue(text, file), broughtBack: [] }),
  // Continue reads config.yaml instead of config.json once it exists: a new one would hide the old.
  refusal: async (file) => {
    const legacy = path.join(path.dirname(file), 'config.json');
    const [yaml, json] = await Promise.all([exists(file), exists(legacy)]);
    return !yaml && json
      ? `${legacy} is in use; a new config.yaml would replace it in Continue. Move it to config.yaml first (Continue's "Migrating Config to YAML"); nothing was changed`
      : null;
  },
};

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

export const AGENT_EDITORS: readonly AgentEditor[] = [claude, codex, opencode, qwen, continueDev];

/** Every agent name `setup` accepts. */
export const SETUP_AGENTS: readonly string[] = AGENT_EDITORS.map((agent) => agent.id);
