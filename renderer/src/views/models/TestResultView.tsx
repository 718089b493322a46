import type { ModelTestResult } from '../../api/test-model.js';
import type { FailureKind } from '../../../../router/api-types.js';
import { formatDuration, formatLatency } from '../../lib/format.js';
import { failureWords, FAILURE_HINTS } from '../../lib/labels.js';

/**
 * The headline of a test: for a model that was out of rotation the test was its trial, and the result says
 * what the trial did ("trial passed: CLOSED", "trial failed: OPEN for 3:30"); otherwise "test passed" or
 * the failure kind.
 */
export function testHeadline(result: ModelTestResult): string {
  const { trial } = result;
  if (trial) {
    const after =
      trial.stateAfter === 'OPEN' && trial.openForMs !== null
        ? `OPEN for ${formatDuration(trial.openForMs)}`
        : trial.stateAfter;
    return trial.passed ? `trial passed: ${after}` : `trial failed: ${after}`;
  }
  return result.ok ? 'test passed' : result.verdict;
}

function isFailureKind(text: string): text is FailureKind {
  return Object.hasOwn(FAILURE_HINTS, text);
}

/**
 * What the provider did: its own HTTP status when it answered one (the router's own status, a 502 say,
 * would hide it), else the failure kind in words (`connection refused, reset or DNS failure`), or that the
 * router answered without sending it on.
 */
export function providerPart(result: ModelTestResult): string {
  if (result.status === 0) return 'router not reachable';
  if (result.providerStatus !== null) return `HTTP ${result.providerStatus} from the provider`;
  if (!result.attempted) return `not sent to the provider (HTTP ${result.status} from the router)`;
  return isFailureKind(result.verdict) ? failureWords(result.verdict) : 'no answer from the provider';
}

/**
 * The verdict of "test through the router": the headline, with what the provider did, the key it was sent
 * with (a test of one key) and latency.
 */
export function TestResultView({ result }: { result: ModelTestResult }) {
  const failedTrial = result.trial !== null && !result.trial.passed;
  return (
    <span
      className={`test-result ${result.ok ? 'test-ok' : 'test-fail'}`}
      title={result.message ?? undefined}
    >
      <span className={`badge ${result.ok && !failedTrial ? 'outcome-ok' : 'outcome-bad'}`}>
        {testHeadline(result)}
      </span>
      {result.trial && !result.ok && <span className="mono">{result.verdict}</span>}
      <span>{providerPart(result)}</span>
      {result.key !== null && (
        <span>
          with key <code className="mono">{result.key}</code>
        </span>
      )}
      <span className="mono">{formatLatency(result.latencyMs)}</span>
      <span className="muted small">not counted as agent traffic</span>
    </span>
  );
}
