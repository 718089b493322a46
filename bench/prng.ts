/** A small seeded PRNG, so chaos runs replay exactly from their seed. */

/** mulberry32: a fast 32-bit generator; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for one cell of a grid (e.g. request × model): the same inputs always give the same stream. */
export function cellRandom(seed: number, row: number, column: number): () => number {
  return mulberry32((seed ^ Math.imul(row + 1, 0x9e3779b1) ^ Math.imul(column + 1, 0x85ebca77)) >>> 0);
}

/** Picks a key of `weights` with probability proportional to its weight. */
export function pickWeighted<K extends string>(
  random: () => number,
  weights: Readonly<Partial<Record<K, number>>>,
): K {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let point = random() * total;
  for (const [key, weight] of entries) {
    point -= weight;
    if (point < 0) return key;
  }
  return (entries.at(-1) as [K, number])[0];
}
