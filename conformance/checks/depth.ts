import { Decimal } from '../../contract/decimal.ts';
import { ORDERBOOK_DEPTH_DEFAULT, type Profile } from '../../contract/index.ts';
import { CheckSkip, expectJson, fail, pass, show, type Check, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';
import { marketOrder } from './clean-market.ts';
import { createLend, expectSuccess, fundedUser, restingRateFor } from './fixtures.ts';
import { RESTING_LADDER } from '../../contract/resting-rate.ts';

// Part 4: the authenticated order book takes `depth` (number, default 10). Accepting it is not
// applying it: a book cut at 10 whatever depth asks passes every check that sends depth=10 or a
// bad value. So the book gets levels of its own (two resting lends at distinct rates, in the
// market the suite uses least), and depth is asked from 1 up to past the book's size. The
// `maturity` filter is applied too: another maturity's book does not gain the lends just placed.

/** The amount resting at `rate` on the lend side, summed over its levels; undefined when an amount is no decimal string. */
function lentAt(sides: Sides, rate: number): Decimal | undefined {
  let sum = new Decimal(0);
  for (const l of sides.lends as Array<{ rate?: unknown; amount?: unknown }>) {
    if (l?.rate !== rate) continue;
    if (typeof l.amount !== 'string' || !/^\d+(\.\d+)?$/.test(l.amount)) return undefined;
    sum = sum.plus(l.amount);
  }
  return sum;
}

interface Sides {
  lends: unknown[];
  borrows: unknown[];
}

async function book(ctx: CheckContext, asset: string, maturity: string, depth: number): Promise<{ r: Reply; sides: Sides }> {
  const r = await ctx.call('orderbook.get', { params: { asset }, query: { maturity, depth } });
  expectSuccess(ctx, r, 'GET /markets/{asset}/orderbook', `GET /markets/${asset}/orderbook?maturity=${maturity}&depth=${depth}`);
  expectJson(r, 'the order book is JSON');
  // The body is the profile's (not shown by the spec): the sides are read as the public book's, wrapped in data or not.
  const body = ((r.json as { data?: Sides } | undefined)?.data ?? r.json) as Partial<Sides> | undefined;
  if (!Array.isArray(body?.lends) || !Array.isArray(body?.borrows)) throw new CheckSkip(`the order book answered ${show(r.json).slice(0, 160)}, with no lends and borrows arrays to count levels in`);
  return { r, sides: body as Sides };
}

export function depthCheck(_profile: Profile): Check {
  return {
    id: 'orderbook.depth',
    title: 'GET /markets/{asset}/orderbook applies depth (1, 2 and the book\'s own size give at most that many levels a side, a depth past the book all of it) and maturity (another maturity\'s book gains none of the lends placed)',
    requirements: ['BOOK-depth', 'BOOK-depth-default', 'BOOK-maturity-filter', 'EP-orderbook-auth'],
    needs: ['write'],
    async run(ctx) {
      const asset = 'USDC';
      const maturity = marketOrder(ctx)[0]!;
      const u = await fundedUser(ctx, 'depth');
      const most = ctx.profile.bounds.orderbookMaxDepth ?? 100;
      // The resting rate and the ladder's next below it: both under the target's bound.
      const top = await restingRateFor(ctx);
      const rates = [RESTING_LADDER.find((r) => r < top) ?? top / 2, top];
      // Another maturity's book, before and after: the lends placed in `maturity` must not show in it.
      const other = ctx.profile.markets.maturities.find((m) => m !== maturity);
      const before = other === undefined ? undefined : await book(ctx, asset, other, most);
      // Two lends at distinct rates that no borrower of the suite crosses: the book has two lend levels at least.
      for (const rate of rates) await createLend(ctx, u, { rate, maturity });
      if (other !== undefined && before) {
        const after = await book(ctx, asset, other, most);
        for (const rate of rates) {
          const [was, now] = [lentAt(before.sides, rate), lentAt(after.sides, rate)];
          if (was === undefined || now === undefined) ctx.note(`the ${other} book's amounts at ${rate} are not decimal strings: the maturity filter was not judged`);
          else if (!now.eq(was)) fail(`maturity=${other} gives the ${other} book only: the lends just placed in ${maturity} are not in it (BOOK-maturity-filter)`, `${was.toFixed()} lent at ${rate}, as before`, `${now.toFixed()}`, after.r.exchange);
        }
      } else ctx.note('the profile lists one maturity: the maturity filter has no other book to keep apart');
      const full = await book(ctx, asset, maturity, most);
      const [l, b] = [full.sides.lends.length, full.sides.borrows.length];
      // Fewer: a resting borrow (an earlier run's, anyone's) may have taken them, which a correct service does.
      if (l < 2) throw new CheckSkip(`the ${asset} ${maturity} book at depth=${most} shows ${l} lend level(s) after two lends at ${rates.join(' and ')} were placed (matched, or the book groups rates): no book of two levels to cut`);
      const levels = l + b;
      // 1, 2, the larger side's size, and one past the whole book (levels of both sides, so a depth counted over both is past it too).
      const depths = [...new Set([1, 2, Math.max(l, b), levels + 1])].filter((d) => d < most && d !== ORDERBOOK_DEPTH_DEFAULT);
      for (const d of depths) {
        const { r, sides } = await book(ctx, asset, maturity, d);
        for (const side of ['lends', 'borrows'] as const) {
          const n = sides[side].length;
          if (n > d) fail(`depth=${d} gives at most ${d} ${side} (BOOK-depth)`, `≤ ${d} ${side}`, `${n} ${side}`, r.exchange);
          const all = full.sides[side].length;
          if (d > levels && n !== all) fail(`depth=${d}, past the book's ${levels} levels, gives every level (BOOK-depth)`, `${all} ${side}`, `${n} ${side}`, r.exchange);
        }
      }
      if (levels + 1 >= most) ctx.note(`the ${maturity} book holds ${levels} levels, at the largest depth asked (${most}): a depth past it was not asked`);
      return pass();
    },
  };
}
