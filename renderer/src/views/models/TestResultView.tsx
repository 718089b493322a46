import type { ModelTestResult } from '../../api/test-model.js';
import { formatDuration, formatLatency } from '../../lib/format.js';

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

/** The verdict of "test through the router": the headline, with status and latency. */
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
      <span className="mono">{result.status ? `HTTP ${result.status}` : 'no response'}</span>
      <span className="mono">{formatLatency(result.latencyMs)}</span>
      <span className="muted small">not counted as agent traffic</span>
    </span>
  );
}
