/**
 * The Prometheus text exposition format, version 0.0.4: metric families in, text out. Pure: what the
 * numbers are is the caller's business (see `metrics-families.ts`).
 */

/** The `Content-Type` of the text format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge';

/** One sample: its label values by label name, and its value. */
export interface MetricSample {
  labels: Readonly<Record<string, string>>;
  value: number;
}

/** One family: the `# HELP` and `# TYPE` lines and its samples (none is valid: HELP and TYPE only). */
export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: readonly MetricSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
/** Label names starting with `__` are reserved for Prometheus itself. */
const LABEL_NAME = /^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$/;

const NEEDS_ESCAPE = /[\\"\n]/;

/** A label value as the format wants it: backslash, double quote and line feed escaped. */
export function escapeLabelValue(value: string): string {
  // Most values need nothing: the test is cheaper than a replace with a callback.
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
}

/** A HELP text: backslash and line feed escaped (quotes stay as they are there). */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (char) => (char === '\n' ? '\\n' : '\\\\'));
}

/** A sample value: Go's float spelling for the special values, else the shortest exact decimal. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function sampleLine(name: string, sample: MetricSample, checked: Set<string>): string {
  let labels = '';
  for (const label in sample.labels) {
    if (!checked.has(label)) {
      if (!LABEL_NAME.test(label)) throw new Error(`metrics: invalid label name "${label}" on ${name}`);
      checked.add(label);
    }
    const value = escapeLabelValue(sample.labels[label] ?? '');
    labels += labels === '' ? `{${label}="${value}"` : `,${label}="${value}"`;
  }
  return `${name}${labels === '' ? '' : `${labels}}`} ${formatValue(sample.value)}`;
}

/**
 * The exposition text of `families`, in the order given, ending in a line feed. A family's name must be
 * unique and valid (a programming error otherwise: it throws).
 */
export function renderMetrics(families: readonly MetricFamily[]): string {
  const seen = new Set<string>();
  // Label names checked once per render, not once per sample.
  const checked = new Set<string>();
  const lines: string[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new Error(`metrics: invalid metric name "${family.name}"`);
    if (seen.has(family.name)) throw new Error(`metrics: metric "${family.name}" given twice`);
    seen.add(family.name);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) lines.push(sampleLine(family.name, sample, checked));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
