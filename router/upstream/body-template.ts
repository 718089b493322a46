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
  readonly #placeholder = `"__fcm_model_${PROCESS_NONCE}_${(sequence += 1)}__"`;
  readonly #serialised: string;

  constructor(body: Record<string, unknown>) {
    this.#body = body;
    this.#serialised = JSON.stringify({ ...body, model: JSON.parse(this.#placeholder) as string });
  }

  /** The body for one upstream model. */
  forModel(upstreamModelId: string, preset: BodyPreset | null): string {
    if (preset) return JSON.stringify({ ...applyBodyPreset(this.#body, preset), model: upstreamModelId });
    return this.#serialised.replace(this.#placeholder, () => JSON.stringify(upstreamModelId));
  }
}
