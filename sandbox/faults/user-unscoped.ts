import { z } from 'zod';
import { engineFault, type FaultResolver } from './fault.ts';
import { partnersOfUser } from './list-ignores-partner.ts';
import { actingAs } from './owner-unchecked.ts';

// A user id keyed without its partner: orders and withdrawals for userId u1 act on the first
// partner's u1 that exists, whichever partner asks. Partner B's withdrawal for its u1 debits
// partner A's u1, and B's lend for u1 lands in A's u1's list and funds.

const ENDPOINTS = ['user.withdraw', 'lend.create', 'borrow.create'] as const;

export const userUnscoped = engineFault({
  name: 'user-unscoped',
  description: 'orders and withdrawals look the user up by userId alone: the first partner to create u1 owns every partner\'s u1',
  breaks: "partner scoping of userId: the same userId under two partners is two users",
  config: z.object({}).strict(),
  install(_config, resolvers) {
    const out: Record<string, FaultResolver> = {};
    for (const id of ENDPOINTS) {
      const real = resolvers[id]!;
      out[id] = (engine, input) => {
        const userId = (input.params.userId ?? (input.body as { userId?: string } | undefined)?.userId) as string | undefined;
        const first = userId === undefined ? undefined : partnersOfUser(engine.db, userId)[0];
        return real(engine, first && first !== input.partner?.partnerId ? actingAs(input, first) : input);
      };
    }
    return out;
  },
});
