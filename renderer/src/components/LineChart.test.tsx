import { render } from '@testing-library/react';
import type uPlot from 'uplot';
import { expect, test, vi } from 'vitest';
import { openScale } from '../test-support/uplot-scale.js';
import { LineChart } from './LineChart.js';

/** The options each chart was built with: uPlot itself draws on a canvas the test page does not have. */
const built = vi.hoisted(() => [] as uPlot.Options[]);
vi.mock('uplot', () => ({
  default: class {
    constructor(options: uPlot.Options) {
      built.push(options);
    }
    setData(): void {}
    setSize(): void {}
    destroy(): void {}
  },
}));

test('an open y axis reaches a round top above the highest value, and its top tick is labelled', () => {
  render(
    <LineChart
      t={[0, 60]}
      series={[{ label: 'p95', values: [2900, 3050], colour: '--state-degraded', scale: 'y' }]}
      left={{ label: 'time to first byte', format: (ms) => `${ms / 1000} s`, minTop: 100 }}
      summary="Time to first byte"
    />,
  );
  const y = openScale(built.at(-1), 'y', 1);
  expect(y.top(3050)).toBe(4000);
  expect(y.ticks(4000)).toEqual([0, 2000, 4000]);
});
