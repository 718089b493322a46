import path from 'node:path';
import { loadConfigFile, validateConfig, type LoadResult } from '../config/config-store.js';
import type { ConfigInput } from '../config/schema.js';
import { demoConfig } from './demo-config.js';
import { startDemoUpstream } from './demo-upstream.js';

export interface DemoSetup {
  /** Demo state lives apart from the real breakers and history. */
  stateDir: string;
  configPath: string;
  loaded: LoadResult;
  close(): Promise<void>;
}

/**
 * Starts the simulated providers and builds the demo config. Edits made in demo mode are kept in
 * `<stateDir>/demo/config.json`; the simulated providers' URLs are refreshed on every start, since their
 * port changes.
 */
export async function prepareDemo(baseDir: string): Promise<DemoSetup> {
  const upstream = await startDemoUpstream();
  const stateDir = path.join(baseDir, 'demo');
  const file = path.join(stateDir, 'config.json');
  const fresh = demoConfig(upstream.url);
  const saved = await loadConfigFile(file);
  let raw: ConfigInput = fresh;
  if (saved.ok && saved.existed) {
    const providers = { ...saved.raw.providers };
    for (const [id, provider] of Object.entries(fresh.providers ?? {})) {
      providers[id] = { ...providers[id], ...provider, enabled: providers[id]?.enabled ?? provider.enabled };
    }
    raw = { ...saved.raw, providers };
  }
  let checked = validateConfig(raw);
  if (!checked.ok) {
    raw = fresh;
    checked = validateConfig(raw);
  }
  // The revision is the file's as read: the first save replaces it, the refreshed URLs included.
  const { revision } = saved;
  const loaded: LoadResult = checked.ok
    ? { ok: true, raw, config: checked.config, existed: saved.ok && saved.existed, revision }
    : { ok: false, issues: checked.issues, path: file, revision };
  return { stateDir, configPath: file, loaded, close: () => upstream.close() };
}
