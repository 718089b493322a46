import { render } from '@testing-library/react';
import type uPlot from 'uplot';
import { expect, test, vi } from 'vitest';
import { RequestsChart } from './RequestsChart.js';

/** The options each chart was built with: uPlot itself draws on a canvas the test page does not have. */
const built = vi.hoisted(() => [] as uPlot.Options[]);
vi.mock('uplot', () => ({
  default: Object.assign(
    class {
      constructor(options: uPlot.Options) {
        built.push(options);
      }
      setData(): void {}
      setSize(): void {}
      destroy(): void {}
    },
    { paths: { bars: () => undefined } },
  ),
}));

test('the request count reaches a round top above the tallest bar, and its top tick is labelled', () => {
  const series = { t: [0, 60], firstTry: [30, 2], afterFailover: [5, 0], failed: [0, 0], refused: [0, 0] };
  render(<RequestsChart series={{ ...series, failoverRate: [14, 0] }} />);
  const options = built.at(-1);
  const plot = {} as uPlot;
  const range = options?.scales?.n?.range;
  if (typeof range !== 'function') throw new Error('the request count has a fixed range');
  const [, top] = range(plot, 0, 35, 'n');
  expect(top).toBe(40);
  const splits = options?.axes?.[1]?.splits;
  expect(typeof splits === 'function' ? splits(plot, 1, 0, 40, 0, 0) : splits).toEqual([0, 20, 40]);
  // A quiet hour still gets readable ticks.
  expect(range(plot, 0, 1, 'n')[1]).toBe(4);
});
