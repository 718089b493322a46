import type { HistoryEntry, ModelStateView, StateResponse } from '../router/index.js';
import { healthVerdict } from '../router/index.js';
import { readinessOf, type Readiness } from './model-readiness.js';

/** The tray icon's colour: the aggregate health of the active set. */
export type TrayColour = 'green' | 'amber' | 'red' | 'grey';

/** What the desktop shell knows about its router. */
export type RouterStatus =
  | { kind: 'starting' }
  | { kind: 'running'; state: StateResponse; lastEntry: HistoryEntry | null }
  | { kind: 'stopped'; reason: string | null }
  /** `otherRouter`: the port is held by an fcm-router that is not the app's (another user's, say). */
  | { kind: 'port-taken'; port: number; nextFreePort: number | null; otherRouter?: boolean };

/** One model line of the tray menu. */
export interface TrayModelLine {
  key: string;
  glyph: string;
  label: string;
}

export interface TrayView {
  colour: TrayColour;
  tooltip: string;
  statusLine: string;
  /** The first models of the active set, in routing order. */
  menuModels: TrayModelLine[];
  /** Active-set models not listed in `menuModels`. */
  moreModels: number;
}

export interface TrayViewOptions {
  /** @default 6 */
  maxMenuModels?: number;
  /** Formats a wall-clock time for "until 14:05". @default local HH:MM */
  formatTime?: (epochMs: number) => string;
}

/** Windows cuts tray tooltips at 127 characters; keep every platform the same. */
export const TOOLTIP_MAX = 127;

const GLYPHS: Record<Readiness, string> = {
  ready: '●',
  degraded: '◐',
  half_open: '◔',
  open: '○',
  quota_paused: '◌',
  key_invalid: '✕',
  no_key: '✕',
  disabled: '–',
  unreachable: '✕',
};

const defaultFormatTime = (epochMs: number): string => {
  const d = new Date(epochMs);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/**
 * Turns the router's snapshot into what the tray shows. Colour and words are the router's health verdict
 * (the dashboard's status shows the same): green, amber or red; red also when the router is not running,
 * grey only while it starts. The menu lists the first models of the active set with their state.
 */
export function computeTrayView(status: RouterStatus, now: number, options: TrayViewOptions = {}): TrayView {
  const none = { menuModels: [], moreModels: 0 };
  switch (status.kind) {
    case 'starting':
      return { colour: 'grey', tooltip: 'fcm-router — starting…', statusLine: 'Starting…', ...none };
    case 'stopped': {
      const why = status.reason ? ` (${status.reason})` : '';
      return {
        colour: 'red',
        tooltip: clip(`fcm-router — router stopped${why}`),
        statusLine: `Router stopped${why}`,
        ...none,
      };
    }
    case 'port-taken': {
      const holder = status.otherRouter ? "another user's fcm-router" : 'another program';
      const line = `Port ${status.port} is in use by ${holder}`;
      return {
        colour: 'red',
        tooltip: clip(`fcm-router — ${line.toLowerCase()}`),
        statusLine: line,
        ...none,
      };
    }
    case 'running':
      return runningView(status.state, status.lastEntry, now, options);
  }
}

function runningView(
  state: StateResponse,
  lastEntry: HistoryEntry | null,
  now: number,
  options: TrayViewOptions,
): TrayView {
  const formatTime = options.formatTime ?? defaultFormatTime;
  const active = state.models.filter((m) => m.inActiveSet);
  const graded = active.map((model) => ({ model, readiness: readinessOf(model, now) }));

  const max = options.maxMenuModels ?? 6;
  const menuModels = graded.slice(0, max).map(({ model, readiness }) => ({
    key: model.key,
    glyph: GLYPHS[readiness],
    label: `${model.key} — ${detail(model, readiness, formatTime)}`,
  }));
  const moreModels = Math.max(0, graded.length - menuModels.length);

  // The router's own verdict, taken at the tray's time: a cooldown that ended since the snapshot counts.
  const verdict = healthVerdict(state, now);
  const last = lastEntry ? ` · last: ${describeLast(lastEntry)}` : '';
  const back =
    verdict.level !== 'green' && verdict.backAt !== null
      ? ` · first back at ${formatTime(verdict.backAt)}`
      : '';
  return {
    colour: verdict.level,
    tooltip: clip(`fcm-router — ${verdict.reason}${last}`),
    statusLine: `${verdict.reason.charAt(0).toUpperCase()}${verdict.reason.slice(1)}${back}`,
    menuModels,
    moreModels,
  };
}

function detail(model: ModelStateView, readiness: Readiness, formatTime: (ms: number) => string): string {
  switch (readiness) {
    case 'ready':
      return 'ready';
    case 'degraded':
      return 'degraded';
    case 'half_open':
      return 'on trial';
    case 'open':
      return model.openUntil !== null ? `open until ${formatTime(model.openUntil)}` : 'open';
    case 'quota_paused':
      return model.quotaPausedUntil !== null
        ? `quota paused until ${formatTime(model.quotaPausedUntil)}`
        : 'quota paused';
    case 'key_invalid':
      return 'key refused';
    case 'no_key':
      return 'no key';
    case 'disabled':
      return 'provider off';
    case 'unreachable':
      return UNREACHABLE_WORDS[model.blockedBy ?? 'unknown_model'] ?? 'unreachable';
  }
}

/** Why the router cannot reach a model, in the menu's words. */
const UNREACHABLE_WORDS: Partial<Record<NonNullable<ModelStateView['blockedBy']>, string>> = {
  unknown_model: 'provider unknown',
  model_vanished: 'no longer listed by its provider',
  provider_unresolvable: 'provider has no usable URL',
};

/** `groq/llama-3.3-70b (1 failover)`, `failed after 3 attempts`, … — never any request content. */
export function describeLast(entry: HistoryEntry): string {
  const failed = entry.attempts.filter((a) => a.kind !== null).length;
  switch (entry.outcome) {
    case 'served':
    case 'partial': {
      const notes: string[] = [];
      if (failed > 0) notes.push(`${failed} failover${failed === 1 ? '' : 's'}`);
      if (entry.outcome === 'partial') notes.push('cut short');
      const model = entry.servedModel ?? 'unknown model';
      return notes.length > 0 ? `${model} (${notes.join(', ')})` : model;
    }
    case 'all_failed':
      return `failed after ${entry.attempts.length} attempt${entry.attempts.length === 1 ? '' : 's'}`;
    case 'no_candidates':
      return 'no model available';
    case 'client_aborted':
      return 'cancelled by the client';
    case 'rejected':
      return `rejected (HTTP ${entry.clientStatus})`;
    case 'internal_error':
      return 'internal error (see the log)';
  }
}

function clip(text: string): string {
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}
