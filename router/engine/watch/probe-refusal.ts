/**
 * Why a probe the user asks for cannot run now: the one answer the dashboard's "probe now" route and the
 * library's `probeNow` give.
 */

/** A probe asked for that does not run, with the status and code the HTTP API answers with. */
export interface ProbeRefusal {
  status: 404 | 409;
  code: 'router_paused' | 'model_not_found' | 'offline';
  message: string;
}

/** What the refusal is decided on. */
export interface ProbeAsk {
  paused: boolean;
  /** The model is in the config. */
  known: boolean;
  /** Its provider may be probed now (`probeAllowed`: one off this machine only while it is online). */
  allowed: boolean;
}

/**
 * Why probing `model` must not run now, or null: a paused router refuses it like any request, an unknown
 * model has nothing to probe, and offline a probe of a model off this machine could only fail and count
 * against a model that may be fine.
 */
export function probeRefusal(model: string, ask: ProbeAsk): ProbeRefusal | null {
  if (ask.paused)
    return {
      status: 409,
      code: 'router_paused',
      message: 'fcm-router: routing is paused; resume it to probe',
    };
  if (!ask.known)
    return { status: 404, code: 'model_not_found', message: `fcm-router: unknown model "${model}"` };
  if (!ask.allowed)
    return {
      status: 409,
      code: 'offline',
      message:
        'fcm-router: this machine has no network connection; probe a model off this machine once it is back',
    };
  return null;
}

/** `probeNow` refused (`ProbeRefusal`): its `code` says why. */
export class ProbeRefusedError extends Error {
  readonly code: ProbeRefusal['code'];
  constructor(refusal: ProbeRefusal) {
    super(refusal.message);
    this.name = 'ProbeRefusedError';
    this.code = refusal.code;
  }
}
