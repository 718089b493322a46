/**
 * Parses Prometheus text exposition with `parse-prometheus-text-format` (a parser written for the format,
 * not ours), its output checked with zod, and looks samples up by exact labels.
 */
import { createRequire } from 'node:module';
import { z } from 'zod/v3';

const parseText = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => unknown;

const familySchema = z.object({
  name: z.string(),
  help: z.string(),
  type: z.enum(['COUNTER', 'GAUGE', 'SUMMARY', 'HISTOGRAM', 'UNTYPED']),
  metrics: z.array(z.object({ value: z.string(), labels: z.record(z.string()).optional() })),
});
export type ParsedFamily = z.infer<typeof familySchema>;

/** Every family of `text`, by name. */
export function parsePrometheus(text: string): Map<string, ParsedFamily> {
  const families = z.array(familySchema).parse(parseText(text));
  return new Map(families.map((family) => [family.name, family]));
}

/** Every sample of one family as `label=value,…` (sorted labels) → its value. */
export function samplesOf(families: Map<string, ParsedFamily>, name: string): Map<string, number> {
  const family = families.get(name);
  if (!family) throw new Error(`no metric family ${name}`);
  return new Map(family.metrics.map((metric) => [labelKey(metric.labels ?? {}), Number(metric.value)]));
}

/** A label set as one comparable string: `a=1,b=2`, labels sorted by name. */
export function labelKey(labels: Record<string, string>): string {
  return Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
}
