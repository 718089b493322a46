import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrometheus, samplesOf } from '../test-support/prometheus-text.js';
import { escapeHelp, escapeLabelValue, renderMetrics, type MetricFamily } from './metrics-text.js';

test('label values escape backslash, double quote and line feed, and a real parser reads them back', () => {
  assert.equal(escapeLabelValue('a\\b"c\nd'), 'a\\\\b\\"c\\nd');
  const awkward = 'C:\\models\\"big"\nnext';
  const text = renderMetrics([
    { name: 'x_total', help: 'h', type: 'counter', samples: [{ labels: { model: awkward }, value: 3 }] },
  ]);
  assert.equal(
    text,
    '# HELP x_total h\n# TYPE x_total counter\nx_total{model="C:\\\\models\\\\\\"big\\"\\nnext"} 3\n',
  );
  assert.deepEqual(samplesOf(parsePrometheus(text), 'x_total'), new Map([[`model=${awkward}`, 3]]));
});

test('HELP escapes backslash and line feed only; every family gets HELP and TYPE, even without samples', () => {
  assert.equal(escapeHelp('a\\b\n"c"'), 'a\\\\b\\n"c"');
  const families: MetricFamily[] = [
    { name: 'up_total', help: 'one\ntwo', type: 'counter', samples: [] },
    { name: 'level', help: 'a gauge', type: 'gauge', samples: [{ labels: {}, value: 0.5 }] },
    { name: 'edges', help: 'specials', type: 'gauge', samples: [{ labels: { k: 'v' }, value: Infinity }] },
  ];
  const text = renderMetrics(families);
  assert.equal(
    text,
    [
      '# HELP up_total one\\ntwo',
      '# TYPE up_total counter',
      '# HELP level a gauge',
      '# TYPE level gauge',
      'level 0.5',
      '# HELP edges specials',
      '# TYPE edges gauge',
      'edges{k="v"} +Inf',
      '',
    ].join('\n'),
  );
  const parsed = parsePrometheus(text);
  assert.equal(parsed.get('level')?.type, 'GAUGE');
  assert.equal(parsed.get('up_total')?.help, 'one\ntwo');
});

test('invalid or repeated names are refused rather than written', () => {
  const family = (name: string, labels: Record<string, string> = {}): MetricFamily => ({
    name,
    help: 'h',
    type: 'gauge',
    samples: [{ labels, value: 1 }],
  });
  assert.throws(() => renderMetrics([family('bad-name')]), /invalid metric name/);
  assert.throws(() => renderMetrics([family('ok', { 'bad-label': 'v' })]), /invalid label name/);
  assert.throws(() => renderMetrics([family('ok', { __name__: 'v' })]), /invalid label name/);
  assert.throws(() => renderMetrics([family('ok'), family('ok')]), /given twice/);
});
