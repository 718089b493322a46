/**
 * The last-resort picker's choices: the models that can serve now first, then those whose provider waits
 * for a key (or is switched off), and what to warn about the chosen one. Pure.
 */
import type { ProviderView } from '../../../router/api-types.js';
import { isUsable } from '../views/providers/provider-filter.js';

export interface Choice {
  key: string;
  /** The option's text: the model, and why it cannot serve now when it cannot. */
  text: string;
}

export interface ChoiceGroup {
  label: string;
  choices: Choice[];
}

/** Why a provider's models cannot serve now, in a few words; null when they can. */
function blocker(provider: ProviderView): string | null {
  if (!provider.enabled) return 'switched off';
  if (provider.unresolvable) return 'address incomplete';
  if (provider.keyStatus === 'invalid') return 'key refused';
  return isUsable(provider) ? null : 'no key';
}

/** Every catalogue model in groups, usable ones first; `current` is kept even when the catalogue lacks it. */
export function lastResortChoices(providers: readonly ProviderView[], current: string): ChoiceGroup[] {
  const usable: Choice[] = [];
  const waiting: Choice[] = [];
  for (const provider of providers) {
    const why = blocker(provider);
    for (const model of provider.models) {
      if (model.vanished && model.key !== current) continue;
      if (why === null) usable.push({ key: model.key, text: model.key });
      else waiting.push({ key: model.key, text: `${model.key} — ${provider.name}: ${why}` });
    }
  }
  const groups = [
    { label: 'Usable now', choices: usable },
    { label: 'Cannot serve yet', choices: waiting },
  ].filter((group) => group.choices.length > 0);
  const known = [...usable, ...waiting].some((choice) => choice.key === current);
  if (current !== '' && !known)
    groups.push({ label: 'Not in the catalogue', choices: [{ key: current, text: current }] });
  return groups;
}

/** What to tell the user about choosing `current`: why it cannot serve as the last resort now, or null. */
export function lastResortWarning(providers: readonly ProviderView[], current: string): string | null {
  if (current === '') return null;
  const provider = providers.find((p) => p.models.some((model) => model.key === current));
  if (!provider) return null;
  const why = blocker(provider);
  const model = provider.models.find((m) => m.key === current);
  if (why === null && !model?.vanished) return null;
  const reason =
    why === 'no key'
      ? `${provider.name} has no key: add one in Providers`
      : why === 'key refused'
        ? `${provider.name} refused its key: replace it in Providers`
        : why === 'switched off'
          ? `${provider.name} is switched off in Providers`
          : why === 'address incomplete'
            ? `${provider.name}'s address is incomplete (see Providers)`
            : `${provider.name} no longer lists this model`;
  return `${reason}, or this model cannot serve as the last resort.`;
}
