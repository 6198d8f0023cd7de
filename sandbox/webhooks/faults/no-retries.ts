import { z } from 'zod';
import { hookFault } from './types.ts';

// A failed delivery is given up at once: the receiver that was down for a moment never gets
// the event.

export const noRetries = hookFault({
  name: 'hook-no-retries',
  description: 'a failed delivery is never retried',
  breaks: 'part 6 rule 3: a failed delivery is retried up to five times',
  config: z.object({}).strict(),
  install: () => ({ retryDelaysMs: () => [] }),
});
