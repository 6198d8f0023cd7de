import { z } from 'zod';
import { hookFault } from './types.ts';

// The first retry comes a third of the way into its minute (20 s instead of 60 s); the
// later ones keep the schedule.

export const earlyRetry = hookFault({
  name: 'hook-early-retry',
  description: 'the first retry is sent 20 s after the failure instead of 1 minute',
  breaks: 'part 6 rule 3: the 1st retry follows after 1 minute',
  // A fraction of the configured first delay, so a test's shortened schedule keeps the bug's shape.
  config: z.object({ fraction: z.number().gt(0).lt(1).default(1 / 3) }).strict(),
  install: (c) => ({ retryDelaysMs: (d) => (d.length ? [Math.round(d[0]! * c.fraction), ...d.slice(1)] : d) }),
});
