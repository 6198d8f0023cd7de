import { z } from 'zod';
import type { Resolver } from '../endpoints/resolvers.ts';
import { RawJson } from '../endpoints/raw-json.ts';
import { engineFault, type FaultResolver } from './fault.ts';
import { actingAs } from './owner-unchecked.ts';

// A user's position list filtered by userId alone: every partner that has a user of that id
// contributes its positions, so partner B listing its user u1 sees partner A's u1's positions.

/** The partners that have a user of this id, oldest first. */
export function partnersOfUser(db: { prepare(sql: string): { all(...a: unknown[]): unknown[] } }, userId: string): string[] {
  return (db.prepare('SELECT partner_id FROM users WHERE user_id = ? ORDER BY created_at_ms, partner_id').all(userId) as Array<{ partner_id: string }>).map((r) => r.partner_id);
}

const items = (body: unknown): unknown[] => ((body instanceof RawJson ? JSON.parse(body.text) : body) as { positions?: unknown[] }).positions ?? [];

export const listIgnoresPartner = engineFault({
  name: 'list-ignores-partner',
  description: "GET /users/{userId}/positions selects by userId alone: the list holds every partner's positions of that user id",
  breaks: "object-level authorization: a partner's list holds only its own users' positions",
  config: z.object({}).strict(),
  install(_config, resolvers) {
    const real = resolvers['positions.list'] as Resolver | FaultResolver;
    return {
      'positions.list': async (engine, input) => {
        const others = partnersOfUser(engine.db, input.params.userId!).filter((p) => p !== input.partner?.partnerId);
        if (!others.length) return real(engine, input);
        // The caller may have no such user (profile errors.unknownUser position_not_found): the others' rows still show.
        const own = await Promise.resolve(real(engine, input)).catch(() => ({ positions: [] }));
        const all = [...items(own)];
        for (const p of others) all.push(...items(await real(engine, actingAs(input, p))));
        return { positions: all, hasMore: false };
      },
    };
  },
});
