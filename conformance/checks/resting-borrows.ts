import { RESTING_LADDER } from '../../contract/resting-rate.ts';
import { CheckSkip, show, type CheckContext } from '../check.ts';
import { positionIdIn } from '../body-id.ts';
import { readBook } from './clean-market.ts';
import { borrowBody, skipIfUnfunded } from './fixtures.ts';

// Borrow levels of a check's own, for a book whose lend side the profile does not locate
// (orderbookLevels.lends unknown, issue 51) but whose borrow side it does: borrows resting at
// rates below every lend of the market, so none is matched. The lend rates come from the public
// book, whose shape the spec states (part 2); the borrows are cancelled afterwards (cancelResting).

/** `n` ladder rates below every lend the public book of the market shows (the lowest ladder rates where none can be read). */
export async function restingBorrowRates(ctx: CheckContext, asset: string, maturity: string, n: number): Promise<number[]> {
  const pub = await readBook(ctx, asset, maturity);
  const floor = pub?.lends.length ? Math.min(...pub.lends) : Infinity;
  if (!pub) ctx.note(`the public ${asset} ${maturity} book could not be read as lends and borrows: the resting borrows ask lendcheck's lowest rates without knowing what lends rest there`);
  const rates = RESTING_LADDER.filter((r) => r < floor).slice(-n);
  if (rates.length < n) throw new CheckSkip(`the ${asset} ${maturity} book has lends resting from ${floor}, below ${n} rates of lendcheck's ladder, so borrows of the check's own would match instead of resting`);
  return rates;
}

/** A borrow resting at `rate` (its id, for the cancel); a skip, saying why, where the target takes none. */
export async function restingBorrow(ctx: CheckContext, userId: string, rate: number, maturity: string): Promise<string | undefined> {
  const r = await ctx.call('borrow.create', { body: borrowBody(ctx, userId, { rate, maturity }) });
  skipIfUnfunded(ctx, r, `a resting borrow for ${userId}`);
  if (r.status < 200 || r.status > 299) throw new CheckSkip(`a borrow at ${rate} in ${maturity} answered ${r.status} ${show(r.json ?? r.text).slice(0, 160)}: no borrow levels of the check's own to count`);
  return positionIdIn(r.json, ctx.profile.ids.borrow);
}
