import { Decimal } from '../../contract/decimal.ts';
import { RESTING_LADDER } from '../../contract/resting-rate.ts';
import { sideLevels } from '../../contract/profile-orderbook.ts';
import { findId } from '../../conformance/body-id.ts';
import type { Reply } from '../../conformance/http.ts';
import { tradeAsset } from './assets.ts';
import { findGainedSide } from './book-find.ts';
import type { BookSide } from '../../contract/profile-orderbook.ts';
import { errorText, ok, type Detector, type Probe } from '../probe.ts';
import { probeAmount } from '../orders/probe-amount.ts';
import { probeRate, searchRateBound } from '../orders/rate-bound.ts';

// Where the authenticated order book keeps its levels (profile orderbookLevels; part 4 shows no
// body). A resting lend of a known rate and amount is placed between two reads of the book, and
// the array whose levels gained it is the lend side (book-find.ts); a resting borrow at a rate
// below every lend the book shows then finds the borrow side the same way. Both are cancelled.
// Seven requests at most (three reads, two orders, two cancels), and the rate bound's search
// when no detector before it made one.

const BOOK = { lends: 'orderbookLevels.lends', borrows: 'orderbookLevels.borrows' } as const;

export const bookLevelsDetector: Detector = {
  name: 'order book levels',
  options: [BOOK.lends, BOOK.borrows],
  async run(p) {
    const maturity = p.fact<string[]>('maturities')?.[0] ?? '30d';
    const asset = tradeAsset(p);
    const read = () => p.call('orderbook.get', { params: { asset }, query: { maturity } });
    const before = await read();
    if (!ok(before)) throw new Error(`GET /markets/${asset}/orderbook?maturity=${maturity} answered ${before.status} ${errorText(before).slice(0, 160)}`);
    const user = p.user('book');
    // The resting rate lies below the target's bound: searched here when this runs before the orders detector (once per detection).
    if (!p.found.has('bounds.rateBelow')) await searchRateBound(p);
    const amount = probeAmount(p);
    const rate = probeRate(p);
    const lend = await p.call('lend.create', { body: { userId: user, asset, amount, rate, maturity } });
    if (!ok(lend)) throw new Error(`a resting lend of ${amount} ${asset} at ${rate} answered ${lend.status} ${errorText(lend).slice(0, 160)}`);
    const after = await read();
    const lends = ok(after) ? findGainedSide(before.json, after.json, rate, amount, 'lends') : undefined;
    if (lends) p.set(BOOK.lends, lends, confidence(lends), [before, lend, after], found(lends, 'lend', rate, amount));
    else p.miss(BOOK.lends, `no array of the book gained a level of ${rate} holding ${amount} after a resting lend (read ${after.status})`);
    try {
      await borrowSide(p, asset, maturity, ok(after) ? after : before, lends ? sideLevels(after.json, lends)?.map((l) => l.rate) : undefined);
    } finally {
      const id = (lend.json as { positionId?: unknown } | undefined)?.positionId;
      if (typeof id === 'string') await p.call('position.cancel', { params: { positionId: id } });
    }
  },
};

const confidence = (s: BookSide) => (s.rate && s.amount ? 'high' : s.rate || s.amount ? 'medium' : 'low');
const found = (s: BookSide, order: string, rate: number, amount: string) =>
  s.rate || s.amount
    ? `the array whose levels at ${rate} gained the ${amount} of a resting ${order} placed between two reads`
    : `the array under the public book's name that gained one level when a resting ${order} of ${amount} at ${rate} was placed between two reads; its levels show neither rate nor amount`;

/** A resting borrow below every lend rate shown (or the ladder's lowest), between two reads: the borrow side. */
async function borrowSide(p: Probe, asset: string, maturity: string, before: Reply, lendRates: unknown[] | undefined): Promise<void> {
  // The organic match's collateral when it ran first; else the first other asset the target takes as collateral (assets.ts).
  const collateral = p.fact<string>('collateralAsset') ?? p.fact<string[]>('collateralAssets')?.find((a) => a !== asset);
  if (!collateral) return p.miss(BOOK.borrows, 'no collateral asset other than the borrowed one was seen taken, so no resting borrow was placed');
  const shown = (lendRates ?? []).filter((r): r is number => typeof r === 'number' && r > 0);
  const rate = [...RESTING_LADDER].reverse().find((r) => shown.every((l) => r < l));
  if (rate === undefined) return p.miss(BOOK.borrows, `no rate of lendcheck's ladder lies below every resting lend (${Math.min(...shown)}), so a borrow there would match`);
  // Collateral as the organic match pledged it (lifecycle.ts), for a borrow of the same size.
  const size = probeAmount(p, '100');
  const pledge = new Decimal(size).div(100).times({ ETH: '1', WBTC: '0.1' }[collateral] ?? '1000').toFixed();
  const b = await p.call('borrow.create', { body: { userId: p.user('book-borrow'), collateral: { asset: collateral, amount: pledge }, borrowAsset: asset, borrowAmount: size, rate, maturity } });
  if (!ok(b)) return p.miss(BOOK.borrows, `a resting borrow of ${size} ${asset} at ${rate} answered ${b.status} ${errorText(b).slice(0, 160)}`);
  try {
    const after = await p.call('orderbook.get', { params: { asset }, query: { maturity } });
    const side = ok(after) ? findGainedSide(before.json, after.json, rate, size, 'borrows') : undefined;
    if (side) p.set(BOOK.borrows, side, confidence(side), [before, b, after], found(side, 'borrow', rate, size));
    else p.miss(BOOK.borrows, `no array of the book gained a level of ${rate} holding ${size} after a resting borrow (read ${after.status})`);
  } finally {
    const id = findId(b.json, (p.found.get('ids.borrow')?.value as string | undefined) ?? 'positionId')?.value ?? findId(b.json)?.value;
    if (id) await p.call('position.cancel', { params: { positionId: id } });
  }
}
