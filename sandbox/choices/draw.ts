import fc from 'fast-check';

// A seeded source of picks for the choices generator. fast-check (already a dependency)
// supplies the seeded, unbiased integers, so a seed names the same profile on every machine
// and Node version; this file only turns them into picks.

export interface Draw {
  /** One of the items, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** A non-empty subset, in the input's order; `keep` items always included. */
  subset<T>(items: readonly T[], keep?: readonly T[]): T[];
}

const SPAN = 2 ** 30;

export function drawFrom(seed: number): Draw {
  const [stream] = fc.sample(fc.infiniteStream(fc.noBias(fc.integer({ min: 0, max: SPAN - 1 }))), { seed, numRuns: 1 });
  const it = stream![Symbol.iterator]();
  const next = (): number => it.next().value as number;
  const d: Draw = {
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from nothing');
      return items[next() % items.length]!;
    },
    chance: (p) => next() / SPAN < p,
    subset: (items, keep = []) => {
      const out = items.filter((x) => keep.includes(x) || d.chance(0.5));
      return out.length ? out : [d.pick(items)];
    },
  };
  return d;
}
