import type { FailureKind } from '../../api-types.js';

/** The part of an attempt the offline rule reads. */
interface TriedModel {
  model: string;
  kind: FailureKind | null;
  /** On this machine (`AttemptView.local`). */
  local?: true;
}

/**
 * The offline rule: a request that nothing served, whose every attempt on a provider off this machine
 * failed with a network error across two or more such providers, says the machine (or its proxy) cannot
 * reach anyone, not that the models are bad. Its network errors do no health damage; the health verdict
 * still counts the request as failed. Attempts on this machine's own servers (`local`) say nothing about
 * its network either way: they are left out, and never excused.
 */
export function isOfflineFailure(attempts: readonly TriedModel[], served: boolean): boolean {
  if (served) return false;
  const providers = new Set<string>();
  for (const attempt of attempts) {
    if (attempt.local === true) continue;
    if (attempt.kind !== 'network_error') return false;
    providers.add(attempt.model.split('/')[0] ?? '');
  }
  return providers.size >= 2;
}
