import type { ModelTestResult } from '../../api/test-model.js';
import { formatLatency } from '../../lib/format.js';

/** The verdict of "test through the router": served or the failure kind, with status and latency. */
export function TestResultView({ result }: { result: ModelTestResult }) {
  return (
    <span
      className={`test-result ${result.ok ? 'test-ok' : 'test-fail'}`}
      title={result.message ?? undefined}
    >
      <span className={`badge ${result.ok ? 'outcome-ok' : 'outcome-bad'}`}>
        {result.ok ? 'test passed' : result.verdict}
      </span>
      <span className="mono">{result.status ? `HTTP ${result.status}` : 'no response'}</span>
      <span className="mono">{formatLatency(result.latencyMs)}</span>
    </span>
  );
}
