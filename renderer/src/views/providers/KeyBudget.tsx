import type { KeyBudgetView } from '../../../../router/api-types.js';
import { ModelKey } from '../../components/ModelKey.js';
import { budgetMeters, budgetUsed } from './budget-use.js';

function Meters({ budget }: { budget: KeyBudgetView }) {
  return (
    <>
      {budgetMeters(budget).map((meter) => (
        <span key={meter.label} className="budget-meter">
          <meter
            min={0}
            max={meter.limit}
            value={Math.min(meter.used, meter.limit)}
            aria-label={meter.label}
          />
          <span className="small mono">{meter.text}</span> <span className="small muted">{meter.label}</span>
        </span>
      ))}
    </>
  );
}

/**
 * A key's use of its free-tier budget: the most used one in full (its model named, unless the provider
 * counts per key), the others of the provider's models behind a disclosure.
 */
export function KeyBudget({ budgets }: { budgets: readonly KeyBudgetView[] }) {
  const [top, ...rest] = budgets;
  if (top === undefined) return null;
  const used = rest.filter(budgetUsed);
  return (
    <div className="key-budget">
      {top.model !== null && <ModelKey value={top.model} className="small" />}
      <Meters budget={top} />
      {used.length > 0 && (
        <details className="key-budget-more">
          <summary className="small">
            {used.length} more {used.length === 1 ? 'model' : 'models'} used today
          </summary>
          {used.map((budget) => (
            <div key={budget.model} className="key-budget">
              {budget.model !== null && <ModelKey value={budget.model} className="small" />}
              <Meters budget={budget} />
            </div>
          ))}
        </details>
      )}
    </div>
  );
}
