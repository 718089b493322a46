/** The stand-in's recorder: every call is appended to the records file as one JSON line. Test-only. */
import { appendFileSync } from 'node:fs';
import { FAKE_ENV, type CallRecord } from './protocol.js';

let seq = 0;
const file = process.env[FAKE_ENV.records];

/** Something that names itself in records instead of being copied (windows, images, notifications). */
export interface Named {
  recordAs(): unknown;
}

function isNamed(value: object): value is Named {
  return typeof (value as Partial<Named>).recordAs === 'function';
}

/** A JSON-safe copy: functions become `'[function]'`, named fakes their own description. */
export function plain(value: unknown, depth = 0): unknown {
  if (typeof value === 'function') return '[function]';
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[deep]';
  if (isNamed(value)) return value.recordAs();
  if (Array.isArray(value)) return value.map((item) => plain(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item, depth + 1)]));
}

/** Appends one record. Synchronous on purpose: `app.exit()` ends the process right after. */
export function record(api: string, call: string, ...args: unknown[]): void {
  const entry: CallRecord = { seq: ++seq, api, call, args: args.map((arg) => plain(arg)) };
  if (file) appendFileSync(file, `${JSON.stringify(entry)}\n`);
}
