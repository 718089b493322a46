import { randomUUID } from 'node:crypto';
import { applyBodyPreset, type BodyPreset } from './body-presets.js';

/**
 * The client's chat body, serialised once per request and re-used for every attempt with only `model`
 * changed: agents send large bodies (tools, long histories) and failover must not pay for a full
 * re-serialisation per attempt. Everything else reaches the upstream as the client sent it.
 */
/** Unguessable per process, unique per request: a client cannot plant it in its own body. */
const PROCESS_NONCE = randomUUID();
let sequence = 0;

export class BodyTemplate {
  readonly #body: Record<string, unknown>;
  /** The serialised body split around its `model` value: no search or copy per attempt. */
  readonly #before: string;
  readonly #after: string;

  constructor(body: Record<string, unknown>) {
    this.#body = body;
    // Plain characters only, so its JSON form is itself in quotes.
    const placeholder = `__fcm_model_${PROCESS_NONCE}_${(sequence += 1)}__`;
    const serialised = serialiseWithModel(body, placeholder);
    const at = serialised.indexOf(`"${placeholder}"`);
    this.#before = serialised.slice(0, at);
    this.#after = serialised.slice(at + placeholder.length + 2);
  }

  /** The body for one upstream model. */
  forModel(upstreamModelId: string, preset: BodyPreset | null): string {
    if (preset) return JSON.stringify({ ...applyBodyPreset(this.#body, preset), model: upstreamModelId });
    return this.#before + JSON.stringify(upstreamModelId) + this.#after;
  }
}

/**
 * The body serialised with `model` set, keys in the order `{ ...body, model }` would give. A body that has
 * its own `model` (the usual case) gets the value swapped in for the synchronous stringify and restored,
 * rather than copied.
 */
function serialiseWithModel(body: Record<string, unknown>, model: string): string {
  if (!Object.hasOwn(body, 'model')) return JSON.stringify({ ...body, model });
  const original = body.model;
  body.model = model;
  try {
    return JSON.stringify(body);
  } finally {
    body.model = original;
  }
}
