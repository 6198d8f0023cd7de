import { legalAmount } from '../../../contract/index.ts';
import { CheckSkip, pass, show, type Check } from '../../check.ts';
import { enc, fundedUser, lendBody, restingRateFor } from '../../checks/fixtures.ts';
import { expectOnly, isInsufficient, sort, stormFail } from '../kit.ts';
import { accepted, recordOne, storm, type StormOp } from '../storm.ts';
import { distinctPositions } from './overcommit.ts';
import { listIds } from './isolation.ts';

// Pagination under writes: a user's list walked with small pages while lends are placed for
// the same user, between every two pages (so the writes always land mid-walk). Every item
// that existed before the walk appears exactly once, and no item appears twice.

// Five lends (a storm as the others' size) walked two at a time, one lend placed between pages:
// three pages, each after a write, and an offset cursor (cursor-shift) repeats a row at the
// first of them. Nine walked four at a time with two writes between pages cost 6 requests more
// and caught nothing more (issue 48; the proof, conformance/concurrency/testing/proof.test.ts).
const EXISTING = 5;
const PAGE = 2;
const WRITES_PER_PAGE = 1;
/** The walk's bound in pages (each with a write after it). */
const MAX_PAGES = 30;

export const paginationUnderWrites: Check = {
  id: 'concurrency.pagination-writes',
  title: `a list walked ${PAGE} at a time while lends are placed shows every earlier position exactly once`,
  requirements: ['CONC-page-under-writes', 'PAGE-cursor'],
  needs: ['write'],
  async run(ctx) {
    const id = this.id;
    const userId = await fundedUser(ctx, 'conc-pages');
    await restingRateFor(ctx);
    // The amount from the profile's bounds (a minimum order of 100 refused the 10 sent before).
    const create = (): StormOp => ({ kind: 'lend.create', body: lendBody(ctx, userId, { amount: legalAmount(ctx.profile, 0, { base: '10' }) }) });
    const { history, replies } = await storm(ctx, id, Array.from({ length: EXISTING }, create));
    const s = sort(replies, isInsufficient);
    expectOnly(ctx, history, replies, s, `${EXISTING} overlapping lends`, 'insufficient_funds');
    distinctPositions(ctx, history, replies, s.accepted, 'lends');
    // Lends the rate limit turned away are placed one by one (waiting out the 429): the walk needs them, not their overlap.
    for (let i = 0; i < s.limited.length; i++) await recordOne(ctx, history, create());
    const before = await listIds(ctx, userId);
    if (before.length <= PAGE) throw new CheckSkip(`only ${before.length} positions of ${userId} were listed (${s.accepted.length} accepted): too few for a walk of several pages`);
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    let pages = 0;
    for (; pages < MAX_PAGES; pages++) {
      const q = `limit=${PAGE}${cursor ? `&cursor=${enc(cursor)}` : ''}`;
      const r = await recordOne(ctx, history, { kind: 'positions.list', ids: { userId }, query: q });
      if (!accepted(r)) stormFail(ctx, history, `each page of the walk is served (${id})`, 'a 2xx page', `${r.status} ${show(r.json)}`, r.exchange);
      const body = r.json as { positions?: Array<{ positionId?: string }>; hasMore?: boolean; nextCursor?: string | null };
      for (const p of body.positions ?? []) if (typeof p.positionId === 'string') seen.set(p.positionId, (seen.get(p.positionId) ?? 0) + 1);
      if (!body.hasMore || !body.nextCursor) break;
      cursor = body.nextCursor;
      // Writes between pages: the walk's next page is asked only after they are acknowledged.
      for (let w = 0; w < WRITES_PER_PAGE; w++) await recordOne(ctx, history, create());
    }
    const twice = [...seen].filter(([, n]) => n > 1);
    if (twice.length) {
      stormFail(ctx, history, `no position appears twice in one walk of the list (${id})`, 'each positionId once', `${twice.length} position(s) appeared more than once while ${pages * WRITES_PER_PAGE} lends were placed mid-walk, e.g. ${twice[0]![0]} ×${twice[0]![1]}`);
    }
    const missing = before.filter((x) => !seen.has(x));
    // A walk cut short by lendcheck's own page bound (a pre-funded user of the profile holding
    // many positions, oldest first) did not see the rest: no verdict on it, rather than a failure.
    if (missing.length && pages === MAX_PAGES) {
      throw new CheckSkip(`${userId} held ${before.length} positions before the walk: ${MAX_PAGES} pages of ${PAGE} did not reach the end of its list, so ${missing.length} earlier positions past them cannot be judged (no position appeared twice in what was walked)`);
    }
    if (missing.length) {
      stormFail(ctx, history, `every position that existed before the walk appears in it (${id})`, `all ${before.length} earlier positions`, `${missing.length} skipped while lends were placed mid-walk, e.g. ${missing[0]}`);
    }
    ctx.note(`walked ${pages + 1} pages of ${PAGE} over ${before.length} earlier positions with ${WRITES_PER_PAGE} lends placed between pages`);
    return pass();
  },
};
