/**
 * `fcm-router status`: where the daemon runs, and the router's own health verdict (the one the dashboard
 * and the tray show), with an exit code a script can use.
 */
import { request } from 'undici';
import { z } from 'zod';
import type { LiveDaemon } from './cli-control.js';

/** Exit codes of `status`; documented in docs/cli.md. */
export const STATUS_EXIT = {
  /** Running, and the next agent request has a model to go to (green or amber). */
  routing: 0,
  /** The daemon answered but its state could not be read. */
  unreadable: 1,
  /** No daemon serves the state folder. */
  notRunning: 3,
  /** Running, but agents are not being served: no next model (nothing routable), or the newest requests all failed. */
  notRouting: 4,
  /** Running, routing paused: agents get 503 `router_paused`. */
  paused: 5,
} as const;

/** The part of `GET /api/state` the command reads. */
const stateSchema = z.object({
  paused: z.boolean(),
  health: z.object({
    level: z.enum(['green', 'amber', 'red']),
    title: z.string().max(200),
    reason: z.string().max(1000),
    next: z.string().max(500).nullable(),
    /** When the first model that is out comes back; absent from an older router. */
    backAt: z.number().nullable().optional(),
  }),
});
export type StatusState = z.infer<typeof stateSchema>;

/** Reads the daemon's `/api/state` (with its token when it recorded one); a message when it cannot. */
export async function readDaemonState(daemon: LiveDaemon): Promise<StatusState | string> {
  try {
    const res = await request(`${daemon.url}/api/state`, {
      headers: daemon.token === null ? {} : { 'x-fcm-token': daemon.token },
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const body: unknown = await res.body.json().catch(() => null);
    if (res.statusCode !== 200) return `GET /api/state answered HTTP ${res.statusCode}`;
    const parsed = stateSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return `GET /api/state: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}`;
    }
    return parsed.data;
  } catch (error) {
    return `GET /api/state failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** `14:05:09`, an epoch time in the local time of the machine `status` runs on (the daemon's). */
export function clockTime(epochMs: number): string {
  const at = new Date(epochMs);
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * What `status` prints and exits with for a daemon it found. The exit code follows where the next agent
 * request goes: 0 only when it has a model to go to (and the newest requests did not all fail). Pure.
 */
export function statusReport(
  daemon: LiveDaemon,
  state: StatusState | string,
): { lines: string[]; code: number } {
  const where = `fcm-router ${daemon.version} running at ${daemon.url} (pid ${daemon.pid}, up ${Math.round(daemon.uptimeMs / 1000)} s${daemon.demo ? ', demo mode' : ''})`;
  if (typeof state === 'string')
    return { lines: [where, `health: unknown (${state})`], code: STATUS_EXIT.unreadable };
  const { health, paused } = state;
  // While paused nothing routes: the model the verdict would pick next is not where a request goes.
  const next = paused ? 'none until resumed' : (health.next ?? 'none');
  const backAt = health.backAt ?? null;
  const back = health.level !== 'green' && backAt !== null ? ` · first back at ${clockTime(backAt)}` : '';
  // Most verdicts already say where the next request goes; the line names that model once.
  const named = !paused && health.next !== null && health.reason.includes(health.next);
  const nextField = named ? '' : ` · next model: ${next}`;
  const verdict = `health: ${health.level} · ${health.title} — ${health.reason}${back}${nextField} · paused: ${paused ? 'yes' : 'no'}`;
  const code = paused
    ? STATUS_EXIT.paused
    : health.level === 'red' || health.next === null
      ? STATUS_EXIT.notRouting
      : STATUS_EXIT.routing;
  return { lines: [where, verdict], code };
}
