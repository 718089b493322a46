import { useState } from 'react';
import type { UsageResponse } from '../../../../router/api-types.js';
import { LineChart, type LineSeries } from '../../components/LineChart.js';
import { Panel } from '../../components/Panel.js';
import { formatTokens } from '../../lib/format.js';
import {
  dailyUsage,
  dayStartSeconds,
  localDay,
  type UsageMeasure,
  type UsageSplit,
} from '../../lib/usage-series.js';
import { UsageTable } from './UsageTable.js';

const SPLITS: { id: UsageSplit; label: string }[] = [
  { id: 'total', label: 'All' },
  { id: 'provider', label: 'By provider' },
  { id: 'model', label: 'By model' },
  { id: 'key', label: 'By key' },
];
const MEASURES: { id: UsageMeasure; label: string }[] = [
  { id: 'requests', label: 'Requests' },
  { id: 'tokens', label: 'Tokens' },
];
/** Series colours, in order (tokens of their own: the state colours mean states). */
const COLOURS = ['--series-1', '--series-2', '--series-3', '--series-4', '--series-5', '--series-6'];

function Segmented<T extends string>(props: {
  label: string;
  options: { id: T; label: string }[];
  value: T;
  onChange(value: T): void;
}) {
  return (
    <div className="segmented" role="group" aria-label={props.label}>
      {props.options.map((o) => (
        <button
          key={o.id}
          type="button"
          aria-pressed={o.id === props.value}
          onClick={() => props.onChange(o.id)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** Requests or tokens per day over the kept days (uPlot), in all or split, with the same numbers as a table. */
export function DailyUsagePanel({ usage, now }: { usage: UsageResponse; now: number }) {
  const [split, setSplit] = useState<UsageSplit>('total');
  const [measure, setMeasure] = useState<UsageMeasure>('requests');
  const daily = dailyUsage(usage, { split, measure, today: localDay(now) });
  const series: LineSeries[] = daily.series.map((s, i) => ({
    label: s.name,
    values: s.values,
    colour: COLOURS[i % COLOURS.length] ?? '--muted',
    scale: 'y',
  }));
  // Counts are whole: a tick between two whole numbers is left unlabelled.
  const format = (n: number) =>
    Number.isInteger(n) ? (measure === 'tokens' ? formatTokens(n) : String(n)) : '';
  return (
    <Panel title={`${measure === 'tokens' ? 'Tokens' : 'Requests'} per day`} className="panel-wide">
      <div className="usage-controls">
        <Segmented<UsageMeasure> label="Show" options={MEASURES} value={measure} onChange={setMeasure} />
        <Segmented<UsageSplit> label="Split" options={SPLITS} value={split} onChange={setSplit} />
      </div>
      <ul className="legend">
        {daily.series.map((s, i) => (
          <li key={s.name} className={`legend-series legend-series-${(i % COLOURS.length) + 1}`}>
            {s.name}
          </li>
        ))}
      </ul>
      <div className="usage-body">
        <LineChart
          t={daily.days.map(dayStartSeconds)}
          series={series}
          left={{ label: measure, format }}
          height={220}
          timeLabel="day"
          summary={`${measure} per day over the last ${daily.days.length} days`}
        />
        <UsageTable usage={daily} measure={measure} />
      </div>
    </Panel>
  );
}
