import { z } from 'zod';

/** Which occurrences of a sequential money fault go wrong: every `every`-th one (1: all of them). */
export const everyConfig = z.object({ every: z.number().int().min(1).max(1000).default(1) }).strict();
export type EveryConfig = z.infer<typeof everyConfig>;

/** Counts calls and says whether this one is an `every`-th (the 1st, then every `every` after). */
export function counter(every: number): () => boolean {
  let n = 0;
  return () => n++ % every === 0;
}
