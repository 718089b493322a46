import { formatTokens } from '../../lib/format.js';
import type { DailyUsage, UsageMeasure } from '../../lib/usage-series.js';

/** The chart's numbers as a table, newest day first: what a screen reader reads, and exact figures for all. */
export function UsageTable({ usage, measure }: { usage: DailyUsage; measure: UsageMeasure }) {
  const show = (n: number) => (measure === 'tokens' ? formatTokens(n) : String(n));
  const rows = usage.days.map((day, i) => ({ day, i })).reverse();
  return (
    <div
      className="usage-table-wrap"
      tabIndex={0}
      role="region"
      aria-label={`${measure} per day, as a table`}
    >
      <table className="usage-table">
        <caption className="sr-only">
          {measure === 'tokens' ? 'Tokens' : 'Requests'} per day, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">day</th>
            {usage.series.length > 1 &&
              usage.series.map((s) => (
                <th scope="col" key={s.name} className="num">
                  {s.name}
                </th>
              ))}
            <th scope="col" className="num">
              total
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ day, i }) => (
            <tr key={day}>
              <th scope="row" className="mono">
                {day}
              </th>
              {usage.series.length > 1 &&
                usage.series.map((s) => (
                  <td key={s.name} className="num mono">
                    {show(s.values[i] ?? 0)}
                  </td>
                ))}
              <td className="num mono">{show(usage.totals[i] ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
