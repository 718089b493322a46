import { render } from '@testing-library/react';
import type uPlot from 'uplot';
import { expect, test, vi } from 'vitest';
import { openScale } from '../test-support/uplot-scale.js';
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
  const requests = openScale(built.at(-1), 'n', 1);
  expect(requests.top(35)).toBe(40);
  expect(requests.ticks(40)).toEqual([0, 20, 40]);
  // A quiet hour still gets readable ticks.
  expect(requests.top(1)).toBe(4);
});
