import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { senderFault } from './types.ts';

// Each retry is built as a new event: the same data under a fresh `id`, so a receiver that
// deduplicates by id (part 6 rule 2) processes the event again.

export const newIdPerRetry = senderFault({
  name: 'hook-new-id-per-retry',
  description: 'every retry of a delivery carries a new event id',
  breaks: 'part 6 rule 2: a redelivery carries the same event id, which receivers deduplicate by',
  direction: 'upstream',
  config: z.object({}).strict(),
  install: (_c, env) => async (req, next) => {
    if (env.attempt(req) === 1) return next(req);
    const fresh = `evt_${randomBytes(12).toString('hex')}`;
    const body = JSON.stringify({ ...(JSON.parse(await req.clone().text()) as object), id: fresh });
    return next(env.sign(req, body, fresh));
  },
});
