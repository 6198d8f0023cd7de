// The shape mutator's decisions are a pure function of (seed, where): the same seed mutates the
// same field of the same endpoint the same way on every request, every machine and every run, so
// a seed names one implementation (whose shapes detection can learn), not noise per request.

/** A 32-bit hash of the seed and a place (FNV-1a over the text, then a murmur finaliser). */
export function hash32(seed: number, where: string): number {
  let h = (0x811c9dc5 ^ (seed | 0)) >>> 0;
  for (let i = 0; i < where.length; i++) {
    h ^= where.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** A number in [0, 1) for the place. */
export const unit = (seed: number, where: string): number => hash32(seed, where) / 2 ** 32;

/** One of the items for the place. */
export function pickAt<T>(seed: number, where: string, items: readonly T[]): T {
  if (!items.length) throw new Error(`pick from nothing at ${where}`);
  return items[hash32(seed, where) % items.length]!;
}

/** An integer in [min, max] for the place. */
export const intAt = (seed: number, where: string, min: number, max: number): number => min + (hash32(seed, where) % (max - min + 1));

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A made-up lower-case word of `len` letters: a name nobody listed. */
export function wordAt(seed: number, where: string, len = 5): string {
  let out = '';
  for (let i = 0; i < len; i++) out += LETTERS[hash32(seed, `${where}#${i}`) % LETTERS.length];
  return out;
}
