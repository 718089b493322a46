import { randomUUID } from 'node:crypto';
import { applyBodyPreset, type BodyPreset } from './body-presets.js';
import type { ThoughtSignatures } from './thought-signatures.js';

/** Unguessable per process, unique per request: a client cannot plant it in its own body. */
const PROCESS_NONCE = randomUUID();
let sequence = 0;

/**
 * The client's chat body, re-used for every attempt with only `model` changed: agents send large bodies
 * (tools, long histories). The first attempt serialises it once with its model; a failover serialises it
 * once more around a placeholder, split there, and every later attempt only joins the two halves around
 * its model. Everything else reaches the upstream as the client sent it.
 */
export class BodyTemplate {
  readonly #body: Record<string, unknown>;
  #used = false;
  /** The serialised body split around its `model` value (from the second attempt on). */
  #halves: { before: string; after: string } | null = null;

  constructor(body: Record<string, unknown>) {
    this.#body = body;
  }

  /** The body for one upstream model; `signatures`: what a preset puts back (see `applyBodyPreset`). */
  forModel(upstreamModelId: string, preset: BodyPreset | null, signatures: ThoughtSignatures | null): string {
    if (preset)
      return JSON.stringify({ ...applyBodyPreset(this.#body, preset, signatures), model: upstreamModelId });
    if (!this.#used) {
      this.#used = true;
      return serialiseWithModel(this.#body, upstreamModelId);
    }
    const halves = (this.#halves ??= split(this.#body));
    return halves.before + JSON.stringify(upstreamModelId) + halves.after;
  }
}

/** The body serialised around a placeholder model, cut in two where its value stands. */
function split(body: Record<string, unknown>): { before: string; after: string } {
  // Plain characters only, so its JSON form is itself in quotes.
  const placeholder = `__fcm_model_${PROCESS_NONCE}_${(sequence += 1)}__`;
  const serialised = serialiseWithModel(body, placeholder);
  const at = serialised.indexOf(`"${placeholder}"`);
  return { before: serialised.slice(0, at), after: serialised.slice(at + placeholder.length + 2) };
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
