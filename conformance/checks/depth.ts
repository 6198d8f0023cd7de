import { Decimal } from '../../contract/decimal.ts';
import { ORDERBOOK_DEPTH_DEFAULT, type BookLevel, type Profile } from '../../contract/index.ts';
import { CheckSkip, expectJson, fail, pass, type Check, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';
import { authBookSides, knownSides, unknownSide, unreadBook, type SideName } from './book-levels.ts';
import { cancelResting, marketOrder } from './clean-market.ts';
import { createLend, expectSuccess, fundedUser, pairAsset, restingRateFor } from './fixtures.ts';
import { restingBorrow, restingBorrowRates } from './resting-borrows.ts';
import { RESTING_LADDER } from '../../contract/resting-rate.ts';

// Part 4: the authenticated order book takes `depth` (number, default 10). Accepting it is not
// applying it: a book cut at 10 whatever depth asks passes every check that sends depth=10 or a
// bad value. So the book gets levels of its own (two resting lends at distinct rates, in the
// market the suite uses least), and depth is asked from 1 up to past the book's size. The
// `maturity` filter is applied too: another maturity's book does not gain the lends just placed.
// The body is not shown by the spec: the levels are read where the profile says
// (orderbookLevels, book-levels.ts); a book whose lend side it does not locate gets two resting
// borrows instead, and a side it does not locate is not counted.

/** The amount resting at `rate` on one side, summed over its levels; undefined when a level shows no numeric rate or decimal amount. */
function restingAt(levels: BookLevel[], rate: number): Decimal | undefined {
  let sum = new Decimal(0);
  for (const l of levels) {
    if (typeof l.rate !== 'number') return undefined;
    if (l.rate !== rate) continue;
    if (typeof l.amount !== 'string' || !/^\d+(\.\d+)?$/.test(l.amount)) return undefined;
    sum = sum.plus(l.amount);
  }
  return sum;
}

type Sides = Partial<Record<SideName, BookLevel[]>>;

async function book(ctx: CheckContext, asset: string, maturity: string, depth: number): Promise<{ r: Reply; sides: Sides }> {
  const r = await ctx.call('orderbook.get', { params: { asset }, query: { maturity, depth } });
  expectSuccess(ctx, r, 'GET /markets/{asset}/orderbook', `GET /markets/${asset}/orderbook?maturity=${maturity}&depth=${depth}`);
  expectJson(r, 'the order book is JSON');
  const { sides, missing } = authBookSides(ctx.profile, r.json);
  if (missing.length) throw new CheckSkip(unreadBook(r.json, missing));
  return { r, sides };
}

export function depthCheck(_profile: Profile): Check {
  return {
    id: 'orderbook.depth',
    title: 'GET /markets/{asset}/orderbook applies depth (1, 2 and the book\'s own size give at most that many levels a side, a depth past the book all of it) and maturity (another maturity\'s book gains none of the lends placed)',
    requirements: ['BOOK-depth', 'BOOK-depth-default', 'BOOK-maturity-filter', 'EP-orderbook-auth'],
    needs: ['write'],
    async run(ctx) {
      const known = knownSides(ctx.profile).map(([s]) => s);
      if (!known.length) throw new CheckSkip(`${unknownSide('lends')}; nor its borrows (orderbookLevels.borrows): no levels to count`, 'run-lacks');
      for (const s of ['lends', 'borrows'] as const) if (!known.includes(s)) ctx.note(`${unknownSide(s)}: only the ${known.join(' and ')} are counted`);
      // The side given levels of the check's own: two resting lends where the profile locates lends, else two resting borrows.
      const placed: SideName = known.includes('lends') ? 'lends' : 'borrows';
      const asset = placed === 'lends' ? 'USDC' : pairAsset(ctx.profile);
      const maturity = marketOrder(ctx)[0]!;
      const u = await fundedUser(ctx, 'depth');
      const most = ctx.profile.bounds.orderbookMaxDepth ?? 100;
      // Lends: the resting rate and the ladder's next below it, both under the target's bound. Borrows: below every resting lend.
      const top = placed === 'lends' ? await restingRateFor(ctx) : 0;
      const rates = placed === 'lends' ? [RESTING_LADDER.find((r) => r < top) ?? top / 2, top] : await restingBorrowRates(ctx, asset, maturity, 2);
      const borrowIds: string[] = [];
      try {
        // Another maturity's book, before and after: the lends placed in `maturity` must not show in it.
        const other = ctx.profile.markets.maturities.find((m) => m !== maturity);
        const before = other === undefined ? undefined : await book(ctx, asset, other, most);
        // Two orders at distinct rates that no counterparty of the suite crosses: the side has two levels at least.
        for (const rate of rates) {
          if (placed === 'lends') await createLend(ctx, u, { rate, maturity });
          else borrowIds.push(...[await restingBorrow(ctx, u, rate, maturity)].filter((id): id is string => id !== undefined));
        }
        if (other !== undefined && before) {
          const after = await book(ctx, asset, other, most);
          for (const rate of rates) {
            const [was, now] = [restingAt(before.sides[placed]!, rate), restingAt(after.sides[placed]!, rate)];
            if (was === undefined || now === undefined) ctx.note(`the ${other} book's ${placed} show no numeric rate and decimal amount at ${rate} (orderbookLevels.${placed}): the maturity filter was not judged`);
            else if (!now.eq(was)) fail(`maturity=${other} gives the ${other} book only: the ${placed} just placed in ${maturity} are not in it (BOOK-maturity-filter)`, `${was.toFixed()} at ${rate}, as before`, `${now.toFixed()}`, after.r.exchange);
          }
        } else ctx.note('the profile lists one maturity: the maturity filter has no other book to keep apart');
        const full = await book(ctx, asset, maturity, most);
        const count = (s: Sides, side: SideName) => s[side]?.length ?? 0;
        const l = count(full.sides, placed);
        // Fewer: a resting counterparty (an earlier run's, anyone's) may have taken them, which a correct service does.
        if (l < 2) throw new CheckSkip(`the ${asset} ${maturity} book at depth=${most} shows ${l} ${placed} level(s) after two ${placed} at ${rates.join(' and ')} were placed (matched, or the book groups rates): no book of two levels to cut`);
        const levels = known.reduce((n, side) => n + count(full.sides, side), 0);
        // 1, 2, the larger side's size, and one past the whole book (levels of both sides, so a depth counted over both is past it too).
        const depths = [...new Set([1, 2, Math.max(...known.map((side) => count(full.sides, side))), levels + 1])].filter((d) => d < most && d !== ORDERBOOK_DEPTH_DEFAULT);
        for (const d of depths) {
          const { r, sides } = await book(ctx, asset, maturity, d);
          for (const side of known) {
            const n = count(sides, side);
            if (n > d) fail(`depth=${d} gives at most ${d} ${side} (BOOK-depth)`, `≤ ${d} ${side}`, `${n} ${side}`, r.exchange);
            const all = count(full.sides, side);
            if (d > levels && n !== all) fail(`depth=${d}, past the book's ${levels} levels, gives every level (BOOK-depth)`, `${all} ${side}`, `${n} ${side}`, r.exchange);
          }
        }
        if (levels + 1 >= most) ctx.note(`the ${maturity} book holds ${levels} levels, at the largest depth asked (${most}): a depth past it was not asked`);
        return pass();
      } finally {
        // Resting borrows would take a later check's low-rate lends: cancelled (the lends rest at a rate no borrower crosses).
        await cancelResting(ctx, borrowIds);
      }
    },
  };
}
