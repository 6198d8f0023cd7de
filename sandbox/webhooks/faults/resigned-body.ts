import { z } from 'zod';
import { hookFault } from './types.ts';

// The signature is computed over a re-serialization of the event (here with two-space
// indentation) while the compact bytes are sent: a receiver verifying the raw body, as part 6
// says, rejects every delivery.

export const resignedBody = hookFault({
  name: 'hook-resigned-body',
  description: 'the signature is computed over a re-serialized body, not over the bytes sent',
  breaks: 'part 6: the signature verifies over the raw request body',
  config: z.object({}).strict(),
  install: () => ({
    body: (payload, eventId) => ({ sent: payload, signed: JSON.stringify(JSON.parse(payload), null, 2), eventId }),
  }),
});
