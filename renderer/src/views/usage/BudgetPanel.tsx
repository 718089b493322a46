import type { KeyBudgetView } from '../../../../router/api-types.js';
import { ModelKey } from '../../components/ModelKey.js';
import { Panel } from '../../components/Panel.js';
import { formatTokens } from '../../lib/format.js';

/** One day budget as a bar: what today used against the day's limit. */
function Bar({ used, limit, what, of }: { used: number; limit: number | null; what: string; of: string }) {
  if (limit === null) return <span className="muted small budget-none">{what}: no day limit</span>;
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const show = what === 'tokens' ? formatTokens : String;
  const tone = share >= 1 ? 'budget-full' : share >= 0.8 ? 'budget-near' : '';
  return (
    <div className="budget">
      <div
        className={`budget-bar ${tone}`}
        role="meter"
        aria-label={`${what} today, ${of}`}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
        aria-valuetext={`${used} of ${limit}`}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <span className="mono small budget-figures">
        {show(used)} / {show(limit)} {what}
      </span>
    </div>
  );
}

function budgetName(row: KeyBudgetView): string {
  return `${row.model ?? `${row.provider} (all models)`} on key ${row.key}`;
}

function BudgetList({ rows }: { rows: KeyBudgetView[] }) {
  return (
    <ul className="budgets">
      {rows.map((row) => (
        <li
          key={`${row.provider} ${row.key} ${row.model ?? ''}`}
          className="budget-row"
          aria-label={budgetName(row)}
        >
          <div className="budget-who">
            {row.model === null ? (
              <span className="mono budget-model">{row.provider} — all models</span>
            ) : (
              <ModelKey value={row.model} className="budget-model" />
            )}
            <span className="muted small">
              key <span className="mono">{row.key}</span>
            </span>
          </div>
          <Bar used={row.dayRequests} limit={row.limits.rpd} what="requests" of={budgetName(row)} />
          <Bar used={row.dayTokens} limit={row.limits.tpd} what="tokens" of={budgetName(row)} />
        </li>
      ))}
    </ul>
  );
}

/**
 * Each key's free-tier budgets for today: requests and tokens against the day's limits, as the router
 * counts them (the counts ranking checks). Budgets not touched today are folded away.
 */
export function BudgetPanel({ budgets }: { budgets: KeyBudgetView[] }) {
  const used = budgets.filter((row) => row.dayRequests > 0 || row.dayTokens > 0);
  const idle = budgets.filter((row) => row.dayRequests === 0 && row.dayTokens === 0);
  return (
    <Panel title="Budgets today" className="panel-wide">
      <p className="muted small">
        Each key’s use of its free-tier day limits in the provider’s day; a model is skipped before it reaches
        one. Keys by fingerprint.
      </p>
      {budgets.length === 0 && <p className="muted">No model in use has a known day limit.</p>}
      {used.length > 0 ? (
        <BudgetList rows={used} />
      ) : (
        budgets.length > 0 && <p className="muted">No budget used today.</p>
      )}
      {idle.length > 0 && (
        <details className="budgets-idle">
          <summary>
            {idle.length} budget{idle.length === 1 ? '' : 's'} not used today
          </summary>
          <BudgetList rows={idle} />
        </details>
      )}
    </Panel>
  );
}
