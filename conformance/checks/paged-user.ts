import { legalAmount } from '../../contract/index.ts';
import type { CheckContext } from '../check.ts';
import { createLend, fundedUser, type Created } from './fixtures.ts';

// The paged user: one user of the run whose every position the run knows, because only the checks
// that record what they do there place or cancel anything for it. The pagination family pages
// it (a walk is held to exactly its set), and the lifecycle checks place their lends there
// rather than each for a user of its own: one fixture for every check that can read it (issue
// 48). Only lends go in (pagination.filters holds type=borrow to none), at the resting rate
// unless a check asks otherwise, so nothing in it is matched by anyone else's order; the one lend
// placed to be matched (the run's shared pair, endpoints.ts matchedPair) is marked so.

export interface PagedUser {
  userId: string;
  /** Every position of the user, in creation order (oldest first). */
  ids: string[];
  /** Those a cancel was answered with a 2xx for. */
  cancelled: Set<string>;
  /** Lends placed to be matched (the run's shared pair): never picked to be cancelled. */
  matched: Set<string>;
}

/** The run's paged user (funded, with no position yet when none was placed). */
export async function pagedUser(ctx: CheckContext): Promise<PagedUser> {
  let b = ctx.shared.get('pagedUser') as PagedUser | undefined;
  if (!b) {
    b = { userId: await fundedUser(ctx, 'pages', '100000000'), ids: [], cancelled: new Set(), matched: new Set() };
    ctx.shared.set('pagedUser', b);
  }
  return b;
}

/** A lend of the paged user, which joins its set: the fixtures' createLend (its failures and skips), a distinct amount unless `over` names one. */
export async function pagedLend(ctx: CheckContext, over: Record<string, unknown> = {}, o: { matched?: boolean } = {}): Promise<Created> {
  const b = await pagedUser(ctx);
  // Distinct amounts within the profile's bounds (contract legalAmount): a minimum order of 100 refused 10 + i.
  const c = await createLend(ctx, b.userId, { amount: legalAmount(ctx.profile, b.ids.length, { base: '10' }), ...over });
  b.ids.push(c.body.positionId);
  if (o.matched) b.matched.add(c.body.positionId);
  return c;
}
