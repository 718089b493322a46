/** One attempt in an `x-fcm-v2-decision` header: the model and its HTTP status or failure kind. */
export interface DecisionAttempt {
  model: string;
  result: string;
}

export interface Decision {
  model: string;
  outcome: string;
  attempts: DecisionAttempt[];
  skips: number;
}

/**
 * Parses `served-model!outcome|a:kind->b:200|skips=N`. Model ids may contain `:` (`x/y:free`), so an
 * attempt splits at its last colon. Returns null for anything that does not look like a decision.
 */
export function parseDecision(header: string | null): Decision | null {
  if (!header) return null;
  const [head, chain = '', skipsPart = ''] = header.split('|');
  const bang = head?.lastIndexOf('!') ?? -1;
  if (!head || bang < 0) return null;
  const attempts = chain
    .split('->')
    .filter((part) => part !== '')
    .map((part) => {
      const colon = part.lastIndexOf(':');
      return colon < 0
        ? { model: part, result: 'ERR' }
        : { model: part.slice(0, colon), result: part.slice(colon + 1) };
    });
  const skips = /^skips=(\d+)$/.exec(skipsPart);
  return {
    model: head.slice(0, bang),
    outcome: head.slice(bang + 1),
    attempts,
    skips: skips ? Number(skips[1]) : 0,
  };
}
