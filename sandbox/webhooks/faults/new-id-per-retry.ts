import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hookFault } from './types.ts';

// Each retry is built as a new event: the same data under a fresh `id`, so a receiver that
// deduplicates by id (part 6 rule 2) processes the event again.

export const newIdPerRetry = hookFault({
  name: 'hook-new-id-per-retry',
  description: 'every retry of a delivery carries a new event id',
  breaks: 'part 6 rule 2: a redelivery carries the same event id, which receivers deduplicate by',
  config: z.object({}).strict(),
  install: () => ({
    body(payload, eventId, attempt) {
      if (attempt === 1) return { sent: payload, signed: payload, eventId };
      const fresh = `evt_${randomBytes(12).toString('hex')}`;
      const body = JSON.stringify({ ...(JSON.parse(payload) as object), id: fresh });
      return { sent: body, signed: body, eventId: fresh };
    },
  }),
});
