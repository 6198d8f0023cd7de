import { z } from 'zod';
import { failed } from '../toxic-door.ts';
import { senderFault } from './types.ts';

// The sender gives up on a receiver long before the 5 s part 6 gives it: a receiver that
// answers 200 in 3 s is counted as failed and sent the event again.

export const senderTimeout = senderFault({
  name: 'hook-sender-timeout',
  description: 'the sender waits 1 s for the answer instead of 5 s, and counts a slower 200 as a failure',
  breaks: 'part 6 rule 1: the receiver has 5 seconds to answer 200',
  direction: 'downstream',
  config: z.object({ timeoutMs: z.number().int().min(50).max(4_900).default(1_000) }).strict(),
  install: (c) => async (req, next) => {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), c.timeoutMs);
    try {
      const res = await next(new Request(req, { signal: AbortSignal.any([req.signal, deadline.signal]) }));
      return deadline.signal.aborted && !req.signal.aborted ? failed(`no answer within ${c.timeoutMs} ms`) : res;
    } finally {
      clearTimeout(timer);
    }
  },
});
