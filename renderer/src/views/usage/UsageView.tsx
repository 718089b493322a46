import { useRouterState, useUsage } from '../../api/queries.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { useNow } from '../../lib/use-now.js';
import { BudgetPanel } from './BudgetPanel.js';
import { DailyUsagePanel } from './DailyUsagePanel.js';
import { SpeedPanel } from './SpeedPanel.js';

/** Usage over the kept days, each key's budgets today, and how fast each model answers. */
export function UsageView() {
  const usage = useUsage();
  const state = useRouterState();
  // Only for "today": a minute is fine enough, and the chart is not rebuilt every second.
  const now = useNow(60_000);
  return (
    <div className="grid">
      <QueryStatus isPending={usage.isPending} error={usage.error} what="usage" />
      {usage.data && <DailyUsagePanel usage={usage.data} now={now} />}
      {usage.data && <BudgetPanel budgets={usage.data.budgets} />}
      {state.data && <SpeedPanel models={state.data.models} />}
    </div>
  );
}
