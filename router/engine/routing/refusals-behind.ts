import type { FitBook } from '../../state/fit-book.js';
import type { RankedCandidate } from './ranking.js';

/** A ranked order, and the models of it put behind the others for refusing what another model served. */
export interface OrderWithRefusals {
  order: readonly RankedCandidate[];
  behind: readonly string[];
}

const NONE: readonly string[] = [];

/**
 * The ranked order with the models that lately refused (4xx) a request another model then served put
 * behind the others, each group in its own order. Such a refusal is the model's way with requests like it,
 * so without this each new conversation would pay an attempt on it first. Pure: `refusedLately` says
 * which models. The same order, and no `behind`, when there are none.
 *
 * @example refusalsBehind([{ key: 'a' }, { key: 'b' }], (key) => key === 'a') // order [b, a], behind ['a']
 */
export function refusalsBehind(
  order: readonly RankedCandidate[],
  refusedLately: (key: string) => boolean,
): OrderWithRefusals {
  let behind: RankedCandidate[] | null = null;
  const ahead: RankedCandidate[] = [];
  for (const candidate of order) {
    if (refusedLately(candidate.key)) (behind ??= []).push(candidate);
    else ahead.push(candidate);
  }
  if (behind === null) return { order, behind: NONE };
  return { order: ahead.concat(behind), behind: behind.map((candidate) => candidate.key) };
}

/**
 * `refusalsBehind` over what `fits` remembers at its clock's now: the models that refused lately and, for a
 * request that forces a tool call (`forced`), those that lately ignored one; the order itself while none did.
 */
export function refusalsBehindIn(
  fits: FitBook,
  order: readonly RankedCandidate[],
  forced: boolean,
): OrderWithRefusals {
  const ignoring = forced && fits.anyTaught('ignoredForcedAt');
  if (!fits.anyTaught('refusedServedAt') && !ignoring) return { order, behind: NONE };
  return refusalsBehind(
    order,
    (key) =>
      fits.lately(key, 'refusedServedAt') !== null ||
      (ignoring && fits.lately(key, 'ignoredForcedAt') !== null),
  );
}
