import { z } from 'zod';
import { hookFault, subscribed } from './types.ts';

// A match notifies the lender only: position.matched about a borrow position is never queued,
// so a partner whose user borrowed never hears that the order was filled.

export const matchedOneSide = hookFault({
  name: 'hook-matched-one-side',
  description: 'position.matched is delivered for the lend side of a match only; the borrow side gets none',
  breaks: "part 6: position.matched for each matched position of the partner",
  config: z.object({}).strict(),
  install: (_config, { db }) => {
    const positionOf = db.prepare('SELECT json_extract(payload, \'$.data.positionId\') FROM outbox_events WHERE seq = ?').pluck();
    const typeOf = db.prepare('SELECT type FROM positions WHERE id = ?').pluck();
    return {
      route: (e, own) => {
        if (e.type !== 'position.matched') return subscribed(e, own);
        const id = positionOf.get(e.seq) as string | null;
        return id && typeOf.get(id) === 'borrow' ? [] : subscribed(e, own);
      },
    };
  },
});
