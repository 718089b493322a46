import type { ConfigIssue, LimitsView, ProviderProbeView } from '../../../../router/api-types.js';
import type { BothChanged } from '../../components/CarriedOverNotice.js';

export const LIMIT_NAMES = ['rpm', 'rpd', 'tpm', 'tpd'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
export type LimitFields = Record<LimitName, string>;

export const LIMIT_WORDS: Record<LimitName, string> = {
  rpm: 'requests per minute',
  rpd: 'requests per day',
  tpm: 'tokens per minute',
  tpd: 'tokens per day',
};

/** Typed in a limit field to remove that limit (the config's `null`). */
export const NO_LIMIT = 'none';

/** The override as the form shows it: a number, `none` for a removed limit, blank for the catalogue's. */
export function limitFields(override: Partial<LimitsView>): LimitFields {
  const shown = (value: number | null | undefined): string =>
    value === undefined ? '' : value === null ? NO_LIMIT : String(value);
  return {
    rpm: shown(override.rpm),
    rpd: shown(override.rpd),
    tpm: shown(override.tpm),
    tpd: shown(override.tpd),
  };
}

/**
 * The limits override to send: blank fields keep the catalogue's figure, `none` removes the limit, a whole
 * number (thousands separators allowed) is the limit; anything else goes as typed, for the router's schema
 * to say what is wrong. Null when every field is blank (no override).
 */
export function limitsBody(fields: LimitFields): Record<string, number | string | null> | null {
  const body: Record<string, number | string | null> = {};
  for (const name of LIMIT_NAMES) {
    const typed = fields[name].trim();
    if (typed === '') continue;
    const digits = typed.replace(/[,_\s]/g, '');
    body[name] = typed.toLowerCase() === NO_LIMIT ? null : /^\d+$/.test(digits) ? Number(digits) : typed;
  }
  return Object.keys(body).length === 0 ? null : body;
}

/** The probe settings as the form holds them; the idle interval in minutes. */
export interface ProbeFields {
  enabled: boolean;
  dailyBudget: string;
  /** Blank: idle models are not probed, only trials. */
  idleMinutes: string;
}

export function probeFields(view: ProviderProbeView): ProbeFields {
  return {
    enabled: view.enabled,
    dailyBudget: String(view.dailyBudget),
    idleMinutes: view.idleIntervalMs === null ? '' : String(view.idleIntervalMs / 60_000),
  };
}

/** What the probe form sends; the minutes must be a number here, the router checks every range. */
export function probeBody(
  fields: ProbeFields,
): { ok: true; probe: Record<string, unknown> } | { ok: false; errors: Record<string, string> } {
  const minutes = fields.idleMinutes.trim();
  if (minutes !== '' && !Number.isFinite(Number(minutes)))
    return { ok: false, errors: { idleIntervalMs: 'a number of minutes, or blank for none' } };
  const budget = fields.dailyBudget.trim();
  return {
    ok: true,
    probe: {
      enabled: fields.enabled,
      dailyBudget: /^\d+$/.test(budget) ? Number(budget) : budget,
      idleIntervalMs: minutes === '' ? null : Math.round(Number(minutes) * 60_000),
    },
  };
}

/** Idle intervals are typed in minutes: the router's range, said in minutes. */
const IDLE_WORDS = 'from 1 to 1440 minutes, or blank for none';

/** The router's issues under `providers.<id>.<part>`, by setting name (the first per name). */
export function settingIssues(
  issues: readonly ConfigIssue[],
  id: string,
  part: 'probe' | 'limits',
): Record<string, string> {
  const prefix = `providers.${id}.${part}.`;
  const found: Record<string, string> = {};
  for (const issue of issues) {
    if (!issue.path.startsWith(prefix)) continue;
    const name = issue.path.slice(prefix.length);
    found[name] ??= name === 'idleIntervalMs' ? IDLE_WORDS : issue.message;
  }
  return found;
}

/** The limits both the user and the file changed, named as the form names them, with the file's value. */
export function limitClashes(conflicts: readonly string[], file: LimitFields): BothChanged[] {
  return conflicts.map((name) =>
    Object.hasOwn(LIMIT_WORDS, name)
      ? { name: LIMIT_WORDS[name as LimitName], file: file[name as LimitName] || 'the catalogue’s figure' }
      : { name, file: null },
  );
}

const PROBE_WORDS: Record<keyof ProbeFields, { name: string; shown(value: string | boolean): string }> = {
  enabled: { name: 'Probes', shown: (on) => (on ? 'on' : 'off') },
  dailyBudget: { name: 'probes a day', shown: String },
  idleMinutes: { name: 'idle minutes', shown: (minutes) => (minutes === '' ? 'never' : String(minutes)) },
};

/** The probe settings both the user and the file changed, named as the form names them, with the file's value. */
export function probeClashes(conflicts: readonly string[], file: ProbeFields): BothChanged[] {
  return conflicts.map((name) => {
    if (!Object.hasOwn(PROBE_WORDS, name)) return { name, file: null };
    const words = PROBE_WORDS[name as keyof ProbeFields];
    return { name: words.name, file: words.shown(file[name as keyof ProbeFields]) };
  });
}
