import type { CheckContext } from '../check.ts';
import { marketId } from '../../contract/index.ts';
import { orderMaturity } from '../../contract/order-maturity.ts';


// Checks that need their own orders to meet each other run against a target that is used
// again and again (a CI gate against a long-lived sandbox): earlier runs, and anyone else,
// may have left resting orders in the shared books. An order of ours that crosses one of
// those is filled by it instead of by our counterparty, and a correct service then looks
// broken. So a check reads the book first and picks a market and rates that cross nothing
// already resting: a lend rate above every resting borrow and below every resting lend. The
// book read is the public one, whose body the spec shows.

/** The rates resting on each side of one market's book, as far as the book shows them. */
export interface BookRates {
  lends: number[];
  borrows: number[];
}

interface BookBody {
  lends?: Array<{ rate?: unknown }>;
  borrows?: Array<{ rate?: unknown }>;
}

/**
 * The PUBLIC book of the market of `asset` in `maturity` (`GET /markets/{id}/orderbook`, whose body
 * part 2 shows: `lends` and `borrows` of `{rate, amount}`, bare or in the `{data, timestamp}`
 * wrapper), or undefined when it cannot be read. Not the authenticated book: its body is not
 * shown, and a target that renamed or nested its levels left conformance guessing a rate that
 * crossed a resting order (issue 47, mutator seeds 1 and 13). The market's id is the one GET
 * /markets lists for that asset and maturity (else the profile's composition).
 */
export async function readBook(ctx: CheckContext, asset: string, maturity: string): Promise<BookRates | undefined> {
  const id = (await listedMarketId(ctx, asset, maturity)) ?? marketId(ctx.profile, asset, maturity);
  const r = await ctx.call('public.orderbook', { params: { id } });
  if (r.status < 200 || r.status > 299) return undefined;
  return bookRates(r.json);
}

/** The spec's public book (part 2), bare or wrapped, as the rates on each side; undefined when it is not that shape. */
export function bookRates(json: unknown): BookRates | undefined {
  const wrapped = json as { data?: BookBody; timestamp?: unknown } | undefined;
  const body = (wrapped && typeof wrapped === 'object' && 'data' in wrapped && 'timestamp' in wrapped ? wrapped.data : json) as BookBody | undefined;
  if (!body || !Array.isArray(body.lends) || !Array.isArray(body.borrows)) return undefined;
  const rates = (side: Array<{ rate?: unknown }>) => side.map((e) => e?.rate);
  const lends = rates(body.lends);
  const borrows = rates(body.borrows);
  if (![...lends, ...borrows].every((x) => typeof x === 'number' && Number.isFinite(x))) return undefined;
  return { lends: lends as number[], borrows: borrows as number[] };
}

/** The id GET /markets (public, part 2: `markets` of {id, asset, maturity, ...}) gives the market, read once a run. */
async function listedMarketId(ctx: CheckContext, asset: string, maturity: string): Promise<string | undefined> {
  let list = ctx.shared.get(MARKETS_KEY) as Promise<Array<{ id?: unknown; asset?: unknown; maturity?: unknown }>> | undefined;
  if (!list) {
    // An answer of GET /markets the run already got (judged on arrival, answer-rules.ts) serves: market ids do not move (issue 48).
    const seen = ctx.answers?.firstSuccess('public.markets')?.reply;
    list = (seen ? Promise.resolve(seen) : ctx.call('public.markets'))
      .then((r) => {
        const j = r.json as { markets?: unknown; data?: { markets?: unknown } } | undefined;
        const m = r.status >= 200 && r.status < 300 ? (j?.markets ?? j?.data?.markets) : undefined;
        return Array.isArray(m) ? (m as Array<{ id?: unknown; asset?: unknown; maturity?: unknown }>) : [];
      })
      .catch(() => []);
    ctx.shared.set(MARKETS_KEY, list);
  }
  const hit = (await list).find((m) => m && m.asset === asset && m.maturity === maturity && typeof m.id === 'string');
  return hit?.id as string | undefined;
}

const MARKETS_KEY = 'cleanMarket:markets';

/** Rates a check may use, lowest first: few decimals, so any rate precision takes them. */
export const CANDIDATE_RATES = [0.0001, 0.001, 0.005, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45];

/**
 * `n` candidate rates, lowest first, strictly above every resting borrow and strictly below
 * every resting lend of `book`: a lend at any of them crosses no resting borrow, and a borrow
 * at any of them crosses no resting lend, so they can only meet orders placed after them.
 * A resting order at the same rate would be first in line (time priority), hence strictly.
 * Undefined when the gap between the two sides holds fewer than `n` candidates.
 */
export function gapRates(book: BookRates, n: number, rateBelow: number | null = null): number[] | undefined {
  const floor = Math.max(-Infinity, ...book.borrows);
  const ceiling = Math.min(Infinity, ...book.lends, rateBelow ?? Infinity);
  const free = CANDIDATE_RATES.filter((r) => r > floor && r < ceiling);
  return free.length >= n ? free.slice(0, n) : undefined;
}

/**
 * Maturities to try for a check's own market, least used by the suite first: the longest
 * ones not the default maturity (where most checks rest their orders), the default last.
 */
export function marketOrder(ctx: CheckContext): string[] {
  const d = orderMaturity(ctx.profile);
  const others = ctx.profile.markets.maturities.filter((m) => m !== d).reverse();
  return [...others, d];
}

export interface CleanMarket {
  maturity: string;
  rates: number[];
  /** What the book showed, for a skip's or a failure's reason. */
  book: BookRates;
}

/**
 * The first market of `asset` (marketOrder) whose book leaves `n` free rates (gapRates).
 * Undefined with `unread` true when no book could be read at all (the target's order book
 * is not readable as the spec's lends and borrows): the caller then keeps its old choice.
 */
export async function cleanMarket(ctx: CheckContext, asset: string, n: number): Promise<{ found?: CleanMarket; unread: boolean; seen: string[] }> {
  const seen: string[] = [];
  let read = false;
  for (const maturity of marketOrder(ctx)) {
    const book = await readBook(ctx, asset, maturity);
    if (!book) continue;
    read = true;
    const rates = gapRates(book, n, ctx.profile.bounds.rateBelow);
    if (rates) return { found: { maturity, rates, book }, unread: false, seen };
    seen.push(`${maturity}: lends from ${Math.min(...book.lends)}, borrows up to ${Math.max(...book.borrows)}`);
  }
  return { unread: !read, seen };
}

/**
 * Cancels orders a check left resting (cancel applies to unmatched orders, part 3), so the
 * next run finds the book as this one did. Unpaced, so a drained budget cannot stop it (a
 * 429 is waited out and retried once); a refusal is ignored: an order that matched
 * meanwhile is not resting, and leaving one behind is what the book check tolerates.
 */
export async function cancelResting(ctx: CheckContext, positionIds: string[]): Promise<void> {
  for (const id of positionIds) {
    await ctx.call('position.cancel', { params: { positionId: id }, paced: false }).catch(() => undefined);
  }
}
