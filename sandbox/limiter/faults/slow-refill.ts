import { z } from 'zod';
import { limitFault } from './types.ts';

// A limiter far stricter than it says: the headers state the tier's rate (X-RateLimit-Limit of
// Growth: 300 a minute), but the bucket refills `factor` times slower (5 a minute at 60). The
// burst is kept, so the first requests pass and only pacing on the stated rate meets the lie.

export const slowRefill = limitFault({
  name: 'slow-refill',
  description: 'the rate limiter refills `factor` (60) times slower than the X-RateLimit-Limit and tier it states',
  breaks: 'rate limits as stated (part 8): a refill far below the stated rate',
  config: z.object({ factor: z.number().min(1).default(60) }).strict(),
  install: (c, stated) => ({ ...stated, perMinute: stated.perMinute / c.factor }),
});
