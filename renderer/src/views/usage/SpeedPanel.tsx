import type { ModelStateView } from '../../../../router/api-types.js';
import { ModelKey } from '../../components/ModelKey.js';
import { Panel } from '../../components/Panel.js';
import { formatLatency, formatRate } from '../../lib/format.js';

/** Models that have served, fastest first by their median time to first byte. */
export function servedModels(models: readonly ModelStateView[]): ModelStateView[] {
  return models
    .filter((m) => m.latency.samples > 0)
    .sort(
      (a, b) =>
        (a.latency.ttfbP50Ms ?? Infinity) - (b.latency.ttfbP50Ms ?? Infinity) || a.key.localeCompare(b.key),
    );
}

/**
 * How fast each model answers, from its recent served attempts (agents' and probes'): time to first byte
 * p50 and p95, and output tokens per second — the figures `fastest` order and `hedgeAfterMs: "auto"` use.
 */
export function SpeedPanel({ models }: { models: readonly ModelStateView[] }) {
  const served = servedModels(models);
  return (
    <Panel title="Speed per model" className="panel-wide">
      {served.length === 0 ? (
        <p className="muted">No model has served yet: figures come from served requests and probes.</p>
      ) : (
        <div className="usage-table-wrap" tabIndex={0} role="region" aria-label="Speed per model">
          <table className="usage-table speed-table">
            <thead>
              <tr>
                <th scope="col">model</th>
                <th scope="col" className="num">
                  first byte p50
                </th>
                <th scope="col" className="num">
                  p95
                </th>
                <th scope="col" className="num">
                  tokens/s
                </th>
                <th scope="col" className="num">
                  samples
                </th>
              </tr>
            </thead>
            <tbody>
              {served.map((m) => (
                <tr key={m.key}>
                  {/* Named by the whole key: the name's parts would otherwise be read apart ("up/ m1"). */}
                  <th scope="row" className="model-name" aria-label={m.key}>
                    <ModelKey value={m.key} />
                  </th>
                  <td className="num mono">{formatLatency(m.latency.ttfbP50Ms)}</td>
                  <td className="num mono">{formatLatency(m.latency.ttfbP95Ms)}</td>
                  <td className="num mono">{formatRate(m.latency.tokensPerSec)}</td>
                  <td className="num mono">{m.latency.samples}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
