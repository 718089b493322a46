/**
 * Fake upstreams that judge a request's size or features the way providers do, for the fit tests: each
 * counts a request's tokens as a quarter of its body's length (its own tokenizer, not the router's).
 */
import { completion } from './upstream-frames.js';
import { jsonBody, type Behaviour } from './upstream-behaviours.js';

/** The fake's own token count of a request: its body, and the output it asks for. */
export function upstreamTokens(rawBody: string): number {
  const asked = /"max_tokens":(\d+)/.exec(rawBody)?.[1];
  return Math.ceil(rawBody.length / 4) + Number(asked ?? 0);
}

/** Serves (`serve`, else a short JSON answer), unless `refuse` says the request is not for it. */
function judge(refuse: (rawBody: string) => Behaviour | null, serve?: Behaviour): Behaviour {
  return (res, call) => (refuse(call.rawBody) ?? serve ?? jsonBody(completion('served')))(res, call);
}

/**
 * A model with a `window`-token context that refuses larger requests as vLLM and OpenAI do (400); what it
 * takes, `serve` answers.
 */
export function contextWindowOf(window: number, serve?: Behaviour): Behaviour {
  return judge((raw) => {
    const tokens = upstreamTokens(raw);
    if (tokens <= window) return null;
    const message = `This model's maximum context length is ${window} tokens. However, you requested ${tokens} tokens. Please reduce the length of the messages.`;
    return jsonBody(
      { error: { message, type: 'invalid_request_error', code: 'context_length_exceeded' } },
      400,
    );
  }, serve);
}

/** A Groq free-tier model whose key takes `tpm` tokens a minute: a larger request is a 413. */
export function tpmOf(tpm: number): Behaviour {
  return judge((raw) => {
    const tokens = upstreamTokens(raw);
    if (tokens <= tpm) return null;
    const message = `Request too large for model \`llama-3.1-8b-instant\` in organization \`org_1\` service tier \`on_demand\` on tokens per minute (TPM): Limit ${tpm}, Requested ${tokens}, please reduce your message size and try again.`;
    return jsonBody({ error: { message, type: 'tokens', code: 'rate_limit_exceeded' } }, 413);
  });
}

/** A model that refuses any request defining tools. */
export const noTools = (): Behaviour =>
  judge((raw) =>
    /"tools":\[\{/.test(raw)
      ? jsonBody({ error: { message: 'tools is not supported', code: 400 } }, 400)
      : null,
  );

/** A model that refuses any request carrying an image. */
export const noImages = (): Behaviour =>
  judge((raw) =>
    raw.includes('"image_url"')
      ? jsonBody({ error: { message: 'this model does not support images' } }, 400)
      : null,
  );
