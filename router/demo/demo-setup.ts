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
 * port changes. A file that cannot be read or is invalid comes back as its issues (the daemon refuses to
 * start), never as a fresh demo config that the first save would write over it.
 */
export async function prepareDemo(baseDir: string): Promise<DemoSetup> {
  const upstream = await startDemoUpstream();
  const stateDir = path.join(baseDir, 'demo');
  const file = path.join(stateDir, 'config.json');
  const fresh = demoConfig(upstream.url);
  const saved = await loadConfigFile(file);
  // The revision is the file's as read: the first save replaces it, the refreshed URLs included.
  const { revision } = saved;
  let loaded: LoadResult = saved;
  if (saved.ok) {
    const raw = saved.existed ? refreshed(saved.raw, fresh) : fresh;
    const checked = validateConfig(raw);
    loaded = checked.ok
      ? { ok: true, raw, config: checked.config, existed: saved.existed, revision }
      : { ok: false, issues: checked.issues, path: file, revision };
  }
  return { stateDir, configPath: file, loaded, close: () => upstream.close() };
}

/** The saved demo config with the simulated providers as they run now (a provider switched off stays off). */
function refreshed(saved: ConfigInput, fresh: ConfigInput): ConfigInput {
  const providers = { ...saved.providers };
  for (const [id, provider] of Object.entries(fresh.providers ?? {})) {
    providers[id] = { ...providers[id], ...provider, enabled: providers[id]?.enabled ?? provider.enabled };
  }
  return { ...saved, providers };
}
