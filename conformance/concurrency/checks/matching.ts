import { Decimal } from '../../../contract/decimal.ts';
import { CheckSkip, pass, show, type Check, type CheckContext } from '../../check.ts';
import { borrowBody, fundedUser, lendBody, pairAsset } from '../../checks/fixtures.ts';
import { cancelResting, cleanMarket } from '../../checks/clean-market.ts';
import { expectOnly, isInsufficient, noteRateLimited, requireAnswered, sort, stormOf, stormFail } from '../kit.ts';
import { accepted, recordOne, storm, type StormOp } from '../storm.ts';
import { positionIdIn } from '../../body-id.ts';
import { legalAmount } from '../../../contract/index.ts';

// Matching never fills more than was offered: in a market of its own (one whose book holds
// nothing at the rates the check uses, so the book is known), one resting borrow of A, then STORM lends of
// A that each cross it, at once. At most one of them can be filled by it: the takers filled at
// the resting order's rate together fill at most A, and the resting order is filled once.
// The spec has no filled amount, so a fill shows as status active: each taker is as large as
// the resting order, so a taker is active only when filled in full. With sandbox controls a
// built-in counterparty may fill takers on its own: those fill at another rate and are
// noted, not counted (the takers ask less than the resting order pays, so a fill against it
// is at its rate).
// The rates come from the book (clean-market.ts): the takers' rate and the resting borrow's,
// above every resting borrow and below every resting lend, so earlier runs' orders (or
// anyone's) cross neither; and what the check leaves resting is cancelled at the end, so the
// next run finds the market as this one did.

export const matchingNoOverfill: Check = {
  id: 'concurrency.matching-no-overfill',
  title: `overlapping lends crossing one resting borrow in a market of their own fill at most its amount`,
  requirements: ['CONC-match-no-overfill', 'STATE-matched-active'],
  needs: ['write'],
  async run(ctx) {
    const id = this.id;
    // Every order of the check: 100, raised to the profile's minimum order.
    const AMOUNT = legalAmount(ctx.profile);
    const asset = pairAsset(ctx.profile);
    const m = await cleanMarket(ctx, asset, 2);
    if (!m.found) throw new CheckSkip(m.unread ? `no order book of ${asset} could be read as lends and borrows with rates, so a market of the check's own cannot be told` : `no market of ${asset} had a book leaving two rates free (above every resting borrow, below every resting lend), so no resting order is the check's own: ${m.seen.join('; ')}`);
    const { maturity } = m.found;
    const [takerRate, makerRate] = m.found.rates as [number, number];
    const borrower = await fundedUser(ctx, 'conc-maker');
    const lender = await fundedUser(ctx, 'conc-takers');
    const b = await ctx.call('borrow.create', { body: borrowBody(ctx, borrower, { borrowAmount: AMOUNT, rate: makerRate, maturity }) });
    if (!accepted(b)) throw new CheckSkip(`the resting borrow of ${AMOUNT} ${asset} in ${maturity} was not accepted: ${b.status} ${show(b.json)}`);
    const makerId = String(positionIdIn(b.json, ctx.profile.ids.borrow));
    const left: string[] = [makerId];
    try {
      return await overfill(ctx, id, { asset, maturity, lender, makerId, takerRate, left });
    } finally {
      await cancelResting(ctx, left);
    }
  },
};

/**
 * Takers in the storm: three. Two filled against one resting order are the overfill; a third
 * keeps the race crowded when one of them is rate limited. Five (the storms' size, kit.ts) spent
 * two more lends and two more cancels of what was left resting, and caught nothing more: the
 * proof, match-overfill 40 of 40 runs with three (issue 48).
 */
const TAKERS = 3;

interface Market {
  asset: string;
  maturity: string;
  lender: string;
  makerId: string;
  takerRate: number;
  /** Orders of the check that may still rest: cancelled at the end, whatever the outcome. */
  left: string[];
}

/** The storm against the resting borrow, and the count of what it filled. */
async function overfill(ctx: CheckContext, id: string, o: Market) {
  const { asset, maturity, lender, makerId, left, takerRate } = o;
  const AMOUNT = legalAmount(ctx.profile);
  const n = Math.min(stormOf(ctx), TAKERS);
  const mk = await ctx.call('position.get', { params: { positionId: makerId } });
  if ((mk.json as { status?: unknown })?.status !== 'pending') throw new CheckSkip(`the resting borrow ${makerId} was ${show((mk.json as { status?: unknown })?.status)} at once, not pending: the ${maturity} market is not the check's own`);
  const lend = (): StormOp => ({ kind: 'lend.create', body: lendBody(ctx, lender, { asset, amount: AMOUNT, rate: takerRate, maturity, mode: 'advanced', autoRollover: false }) });
  const { history, replies } = await storm(ctx, id, Array.from({ length: n }, lend));
  const s = sort(replies, isInsufficient);
  expectOnly(ctx, history, replies, s, `${n} overlapping lends crossing ${makerId}`, 'insufficient_funds');
  noteRateLimited(ctx, s, 'lends');
  requireAnswered(s, n, 2, 'lends');
  const takers = s.accepted.map((i) => String((replies[i]!.json as { positionId?: unknown }).positionId));
  left.push(...takers);
  const t0 = performance.now();
  const read = async (pid: string) => (await recordOne(ctx, history, { kind: 'position.get', ids: { positionId: pid } })).json as { status?: unknown; rate?: unknown } | undefined;
  // Matching may complete after the answers (the spec lets it happen at any time): the
  // resting order is read until it is active, for up to 2 s, before the takers are counted.
  let maker = await read(makerId);
  while (maker?.status !== 'active' && performance.now() - t0 < 2_000) {
    await new Promise((res) => setTimeout(res, 100));
    maker = await read(makerId);
  }
  const states = await takerStates(ctx, history, lender, takers, read);
  const filled = takers.filter((_, i) => states[i]?.status === 'active');
  // Only what still rests is cancelled at the end: a filled order's cancel would be refused anyway.
  left.splice(0, left.length, ...[makerId, ...takers].filter((_, i) => (i === 0 ? maker : states[i - 1])?.status !== 'active'));
  const byMaker = filled.filter((_, i) => states[takers.indexOf(filled[i]!)]?.rate !== takerRate);
  const others = filled.length - byMaker.length;
  if (others && !ctx.hasControls) ctx.note(`${others} taker(s) were filled at their own rate ${takerRate}, not by the resting order`);
  if (others && ctx.hasControls) ctx.note(`${others} taker(s) filled at their own rate ${takerRate}: the sandbox's built-in counterparty, not counted`);
  const total = new Decimal(AMOUNT).mul(byMaker.length);
  if (total.gt(AMOUNT)) {
    stormFail(ctx, history, `matching never fills more than was offered (${id})`, `at most ${AMOUNT} ${asset} filled against one resting borrow of ${AMOUNT}`, `${byMaker.length} lends of ${AMOUNT} ${asset} filled against ${makerId} (${maker?.status === 'active' ? 'active' : show(maker?.status)}): ${total.toFixed()} filled from ${AMOUNT} offered, e.g. ${byMaker[0]} and ${byMaker[1]}`);
  }
  if (byMaker.length === 1 && maker?.status !== 'active') {
    stormFail(ctx, history, `both sides of a fill agree (${id})`, `${makerId} active once a taker of its whole amount is filled`, `${byMaker[0]} is active but ${makerId} reads ${show(maker?.status)}`);
  }
  ctx.note(`market ${asset} ${maturity}: ${takers.length} takers accepted, ${byMaker.length} filled by the resting order (read ${Math.round(performance.now() - t0)} ms after the storm)`);
  return pass();
}

type View = { status?: unknown; rate?: unknown } | undefined;

/**
 * The takers' status and rate from one read of the lender's list (its items carry both, spec
 * part 2), not one read each (issue 48: 4 requests fewer); a taker the first page does not
 * hold is read on its own.
 */
async function takerStates(ctx: CheckContext, history: Parameters<typeof recordOne>[1], lender: string, takers: string[], read: (pid: string) => Promise<View>): Promise<View[]> {
  if (takers.length < 2) return Promise.all(takers.map(read));
  const r = await recordOne(ctx, history, { kind: 'positions.list', ids: { userId: lender }, query: 'limit=100' });
  const items = accepted(r) ? ((r.json as { positions?: unknown } | undefined)?.positions ?? []) : [];
  const byId = new Map((Array.isArray(items) ? items : []).filter((p): p is { positionId: string } => typeof p?.positionId === 'string').map((p) => [p.positionId, p as View]));
  return Promise.all(takers.map(async (pid) => byId.get(pid) ?? (await read(pid))));
}
