/** The benchmark's output: a plain-text table for the terminal, a Markdown one for the README, and results.json. */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { Measured, Row } from './bars.js';
import { round } from './stats.js';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
}

/** The machine the run happened on. */
export function machine(): Machine {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

const cell = (value: number | null): string => (value === null ? '-' : String(round(value)));
const ratioCell = (row: Row): string =>
  row.ratio === null ? '-' : `${round(row.ratio)}x${row.against ? ` ${row.against}` : ''}`;

const COLUMNS = ['workload', 'metric', 'direct', 'relay', 'router', 'router/relay', 'bar', 'result'] as const;

function cells(row: Row): string[] {
  return [
    row.workload,
    row.metric,
    cell(row.direct),
    cell(row.relay),
    cell(row.router),
    ratioCell(row),
    row.bar,
    row.pass ? 'PASS' : 'MISS',
  ];
}

/** The rows as an aligned text table; MISS rows are marked with `>>` so they stand out. */
export function textTable(rows: readonly Row[]): string {
  const body = rows.map(cells);
  const widths = COLUMNS.map((title, i) =>
    Math.max(title.length, ...body.map((line) => (line[i] ?? '').length)),
  );
  const format = (line: readonly string[], mark: string): string =>
    `${mark} ${line.map((text, i) => (i >= 2 && i <= 5 ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0))).join('  ')}`;
  return [format(COLUMNS, '  '), ...body.map((line, i) => format(line, rows[i]?.pass ? '  ' : '>>'))].join(
    '\n',
  );
}

/** The rows as a Markdown table (for the README's Performance section). */
export function markdownTable(rows: readonly Row[]): string {
  const lines = [
    `| ${COLUMNS.join(' | ')} |`,
    `|${COLUMNS.map((_, i) => (i >= 2 && i <= 5 ? '---:' : '---')).join('|')}|`,
  ];
  for (const row of rows) lines.push(`| ${cells(row).join(' | ')} |`);
  return lines.join('\n');
}

/** Writes results.json: machine, time, mode, the rows and the raw medians. */
export async function writeResults(
  file: string,
  mode: 'quick' | 'full',
  rows: readonly Row[],
  measured: Measured,
  notes: readonly string[],
): Promise<void> {
  const results = { timestamp: new Date().toISOString(), mode, machine: machine(), rows, measured, notes };
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
}
