/**
 * Which requests are reshaped before they go upstream, and how, as catalogue facts: some providers refuse
 * parameters others accept, and Mistral's models refuse conversations other models take. The reshaping
 * itself is `upstream/body-presets.ts`.
 */

/**
 * A provider's own preset (the catalogue's, or the config's `bodyPreset`). `strict`: parameters others
 * accept and it refuses are dropped, `temperature` is kept to 1 at most, tool results no tool call announced
 * are dropped. `mistral` (Mistral's own API): all that, and Mistral's rules for a conversation. `gemini`
 * (Google's API): tool calls get back the thought signatures Google gave them, Google's stand-in (for
 * Gemini 3 and later) where the conversation lost them. `none`: the agent's body as it came, a Mistral
 * model's too (but for Gemini's thought signatures, which the router sends to a `gemini` provider only).
 */
export const PROVIDER_PRESETS = ['strict', 'mistral', 'gemini', 'none'] as const;

/** One of {@link PROVIDER_PRESETS}, as the catalogue and the config name it. */
export type ProviderPreset = (typeof PROVIDER_PRESETS)[number];

/**
 * The preset a model's requests take: its provider's, else `mistral-model` for a Mistral model served
 * elsewhere (Mistral's rules for a conversation, as the chat templates such hosts serve it with check them);
 * `gemini-before-3` for a Gemini 1.x or 2.x model at a `gemini` provider (its own thought signatures put
 * back, no stand-in: those models do not require one).
 */
export type BodyPreset = Exclude<ProviderPreset, 'none'> | 'mistral-model' | 'gemini-before-3';

/** Mistral's model families, as their ids name them (`mistral-small-3.2`, `@cf/mistralai/…`, `codestral-latest`). */
const MISTRAL_MODEL =
  /(?:^|[^a-z])(?:mistral|mixtral|codestral|devstral|magistral|ministral|pixtral|leanstral)/i;

/** Gemini models before 3, which neither require thought signatures nor are documented to take the stand-in. */
const GEMINI_BEFORE_3 = /(?:^|\/)gemini-[12](?:[.-]|$)/i;

/** The preset for requests to `upstreamModelId` at a provider whose own preset is `provider`. */
export function bodyPresetOf(provider: ProviderPreset | null, upstreamModelId: string): BodyPreset | null {
  if (provider === 'none') return null;
  if (provider === 'gemini' && GEMINI_BEFORE_3.test(upstreamModelId)) return 'gemini-before-3';
  if (provider !== null) return provider;
  return MISTRAL_MODEL.test(upstreamModelId) ? 'mistral-model' : null;
}
