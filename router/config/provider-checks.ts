/**
 * What the config schema cannot see of the providers: a custom provider's base URL and models, and a
 * last-resort model the router knows. Pure: the config and the catalogue are passed in.
 */
import { BUILTIN_CATALOGUE, splitModelKey, type Catalogue } from './resolve-config.js';
import type { Config, ConfigIssue } from './schema.js';

/**
 * Problems the schema cannot see: a custom provider needs a base URL and at least one model, and the
 * last-resort model must be one the router knows (a catalogue model, one listed in the provider's
 * `models`, or one a set names), since it is tried only when everything else failed.
 */
export function checkProviders(config: Config, catalogue: Catalogue = BUILTIN_CATALOGUE): ConfigIssue[] {
  const known = new Set(catalogue.providers.map((provider) => provider.id));
  const issues = Object.entries(config.providers).flatMap(([id, provider]) => {
    if (known.has(id)) return [];
    const found: ConfigIssue[] = [];
    if (provider.baseUrl === undefined) {
      found.push({
        path: `providers.${id}.baseUrl`,
        message: 'required for a provider not in the catalogue',
      });
    }
    if (provider.models === undefined || provider.models.length === 0) {
      found.push({
        path: `providers.${id}.models`,
        message: 'list at least one model id for a custom provider',
      });
    }
    return found;
  });
  const lastResort = config.router.failover.lastResortModel;
  const problem = lastResort === null ? null : unknownModel(lastResort, config, catalogue);
  if (problem !== null) issues.push({ path: 'router.failover.lastResortModel', message: problem });
  return issues;
}

/** Why `key` names no model the router knows, or null when it does. */
function unknownModel(key: string, config: Config, catalogue: Catalogue): string | null {
  const split = splitModelKey(key);
  if (!split) return 'must be "provider/modelId"';
  const { provider, modelId } = split;
  const inCatalogue = catalogue.providers.some((entry) => entry.id === provider);
  if (!inCatalogue && config.providers[provider] === undefined) {
    return `no provider "${provider}": name a model as provider/model, e.g. groq/llama-3.3-70b-versatile`;
  }
  const listed =
    catalogue.models.some((model) => model.provider === provider && model.id === modelId) ||
    (config.providers[provider]?.models ?? []).includes(modelId) ||
    Object.values(config.sets ?? {}).some((set) => set.includes(key));
  if (listed) return null;
  return `${provider} has no model "${modelId}" in the catalogue: pick one of its models, or list it in providers.${provider}.models`;
}
