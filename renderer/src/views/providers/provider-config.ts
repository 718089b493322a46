import type { ConfigInput } from '../../../../router/api-types.js';

/**
 * The config with one provider enabled or disabled. Enabled is the default, so enabling removes the flag
 * (and an entry left empty) instead of writing `enabled: true`.
 */
export function withProviderEnabled(config: ConfigInput, id: string, enabled: boolean): ConfigInput {
  const providers = { ...(config.providers ?? {}) };
  const entry = { ...(providers[id] ?? {}) };
  if (enabled) delete entry.enabled;
  else entry.enabled = false;
  if (Object.keys(entry).length === 0) delete providers[id];
  else providers[id] = entry;
  return { ...config, providers };
}
