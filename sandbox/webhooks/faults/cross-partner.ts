import { z } from 'zod';
import { hookFault, subscribed } from './types.ts';

// The worst webhook bug there is: the fan-out looks subscriptions up by event type alone, not by
// the event's partner, so partner A's events about its users reach partner B's receiver too.

export const crossPartner = hookFault({
  name: 'hook-cross-partner',
  description: "an event is delivered to every partner's subscriptions that listed its type, not only to its own partner's",
  breaks: "part 6: events go to the subscribing partner only (a data leak between partners)",
  config: z.object({}).strict(),
  install: () => ({ route: (e, _own, all) => subscribed(e, all()) }),
});
