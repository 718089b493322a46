import type { FitBook } from '../../state/fit-book.js';
import type { RankedCandidate } from './ranking.js';

/**
 * The ranked order with the models that lately refused (4xx) a request another model then served put
 * behind the others, each group in its own order. Such a refusal is the model's way with requests like it,
 * so without this each new conversation would pay an attempt on it first. Pure: `refusedLately` says
 * which models. The same order when there are none.
 *
 * @example refusalsBehind([{ key: 'a' }, { key: 'b' }], (key) => key === 'a') // [b, a]
 */
export function refusalsBehind(
  order: readonly RankedCandidate[],
  refusedLately: (key: string) => boolean,
): readonly RankedCandidate[] {
  let behind: RankedCandidate[] | null = null;
  const ahead: RankedCandidate[] = [];
  for (const candidate of order) {
    if (refusedLately(candidate.key)) (behind ??= []).push(candidate);
    else ahead.push(candidate);
  }
  return behind === null ? order : ahead.concat(behind);
}

/** `refusalsBehind` over what `fits` remembers at its clock's now; the order itself while nothing refused. */
export function refusalsBehindIn(
  fits: FitBook,
  order: readonly RankedCandidate[],
): readonly RankedCandidate[] {
  if (!fits.anyRefused) return order;
  return refusalsBehind(order, (key) => fits.refusedLately(key) !== null);
}
