import { z } from 'zod';

/** The wait between the read and the write of a race: long enough for the other requests of a
 *  storm to arrive in it, short enough to keep the proof fast. */
export const gapConfig = z.object({ gapMs: z.number().int().min(1).max(10_000).default(5) }).strict();
export type GapConfig = z.infer<typeof gapConfig>;
