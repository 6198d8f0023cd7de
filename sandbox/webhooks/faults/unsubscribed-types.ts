import { z } from 'zod';
import { hookFault } from './types.ts';

// The fan-out ignores the subscription's `events` list: every event of the partner goes to
// every one of its subscriptions, whatever types it asked for.

export const unsubscribedTypes = hookFault({
  name: 'hook-unsubscribed-types',
  description: "an event goes to every subscription of its partner, whatever event types the subscription listed",
  breaks: 'part 6: a subscription names the list of events wanted',
  config: z.object({}).strict(),
  install: () => ({ route: (e, own) => own.filter((s) => e.seq > s.after_seq) }),
});
