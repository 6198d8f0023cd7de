import { z } from 'zod';
import { senderFault } from './types.ts';

// The signature is computed over a re-serialization of the event (here with two-space
// indentation) while the compact bytes are sent: a receiver verifying the raw body, as part 6
// says, rejects every delivery.

export const resignedBody = senderFault({
  name: 'hook-resigned-body',
  description: 'the signature is computed over a re-serialized body, not over the bytes sent',
  breaks: 'part 6: the signature verifies over the raw request body',
  direction: 'upstream',
  config: z.object({}).strict(),
  install: (_c, env) => async (req, next) => {
    const sent = await req.clone().text();
    const event = JSON.parse(sent) as { id: string };
    const signed = env.sign(req, JSON.stringify(event, null, 2), event.id);
    return next(new Request(signed.url, { method: signed.method, headers: signed.headers, body: sent, signal: req.signal }));
  },
});
