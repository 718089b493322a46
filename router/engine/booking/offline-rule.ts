import type { FailureKind } from '../../api-types.js';

/** The part of an attempt the offline rule reads. */
interface TriedModel {
  model: string;
  kind: FailureKind | null;
}

/**
 * The offline rule: a request that nothing served, whose every attempt failed with a network error across
 * two or more providers, says the machine (or its proxy) cannot reach anyone, not that the models are bad.
 * Its network errors do no health damage; the health verdict still counts the request as failed.
 */
export function isOfflineFailure(attempts: readonly TriedModel[], served: boolean): boolean {
  if (served || attempts.length === 0) return false;
  const providers = new Set(attempts.map((attempt) => attempt.model.split('/')[0]));
  return attempts.every((attempt) => attempt.kind === 'network_error') && providers.size >= 2;
}
