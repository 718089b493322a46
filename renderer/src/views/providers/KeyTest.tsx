import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BreakerStateName, ModelStateView, ProviderView } from '../../../../router/api-types.js';
import { testThroughRouter } from '../../api/test-model.js';
import { TestResultView } from '../models/TestResultView.js';

/** What a provider's tests go to: one of its models, and that model's breaker state when asked. */
export interface TestTarget {
  /** The model a test is pinned to; null when the provider has none. */
  model: string | null;
  /** Its breaker state: a test of an OPEN or HALF_OPEN model is its trial. */
  before: BreakerStateName | null;
}

/** A provider's test target: one of its models the user routes to, else its first. */
export function testTargetOf(
  provider: ProviderView,
  activeModels: readonly string[],
  models: readonly ModelStateView[],
): TestTarget {
  const model =
    provider.models.find((m) => activeModels.includes(m.key))?.key ?? provider.models[0]?.key ?? null;
  return { model, before: models.find((m) => m.key === model)?.state ?? null };
}

/**
 * One pinned request to the provider's test model through the router, marked as a test. With `fingerprint`
 * it goes with that key only (the router is told the fingerprint: the page never has a key), and its result
 * names the key; without, as an agent's request goes (a provider that needs no key).
 */
export function KeyTest({
  provider,
  target,
  fingerprint = null,
  className,
}: {
  provider: ProviderView;
  target: TestTarget;
  fingerprint?: string | null;
  className: string;
}) {
  const client = useQueryClient();
  const { model, before } = target;
  const test = useMutation({
    mutationFn: (pinned: string) => testThroughRouter(pinned, before, { key: fingerprint }),
    onSettled: () => client.invalidateQueries({ queryKey: ['providers'] }),
  });
  const name = fingerprint === null ? `Test ${provider.name}` : `Test key ${fingerprint} of ${provider.name}`;
  return (
    <span className={className}>
      <button
        type="button"
        className="btn btn-small"
        disabled={model === null || test.isPending}
        onClick={() => model !== null && test.mutate(model)}
        title={model !== null ? `Sends one pinned request to ${model}` : 'No model to test with'}
        aria-label={name}
      >
        {test.isPending ? 'Testing…' : 'Test'}
      </button>
      <span aria-live="polite">{test.data && <TestResultView result={test.data} />}</span>
    </span>
  );
}
