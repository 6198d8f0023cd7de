import { createHash } from 'node:crypto';
import { marketId } from '../../contract/index.ts';
import type { Engine, ListRow } from './engine.ts';
import { D, str } from '../money/money.ts';
import type { PositionRow } from '../store/rows.ts';
import { iso } from '../store/rows.ts';

// Rows → response bodies (contract schemas and lendcheck-v1 shapes).

/** Deterministic per market, so every position of a market names the same bond token. */
export function cbtTokenAddress(engine: Engine, asset: string, market: string): string {
  const id = marketId(engine.profile, asset, market);
  let a = cbtCache.get(id);
  if (!a) cbtCache.set(id, (a = `0x${createHash('sha256').update(`cbt:${id}`).digest('hex').slice(0, 40)}`));
  return a;
}
const cbtCache = new Map<string, string>();

/** A position's exact money figures, kept while the inputs they were computed from hold. */
interface Figures {
  /** Every row field the figures read; a write that changes any of them misses the cache. */
  sig: string;
  projected: string;
  cbtAmount: string;
  /** The accrual end (ms) the accrued figure is for: reused only for that same instant. */
  accruedEnd: number;
  accrued: string;
}
// Decimal arithmetic was an eighth of a GET's CPU (BENCHMARKS.md); a position read again
// before any write to it gets its figures from here, exactly as computed before. Bounded:
// cleared when it grows past the working set of a run.
const figuresCache = new WeakMap<Engine, Map<string, Figures>>();
const FIGURES_MAX = 50_000;

function figuresOf(engine: Engine, r: PositionRow, at: number): Figures {
  let cache = figuresCache.get(engine);
  if (!cache) figuresCache.set(engine, (cache = new Map()));
  const sig = `${r.status}|${r.amount}|${r.filled}|${r.rate}|${r.matched_at_ms}|${r.created_at_ms}|${r.maturity_ms}|${r.closed_at_ms}|${r.asset}`;
  const end = r.matched_at_ms === null ? 0 : Math.min(at, r.maturity_ms, r.closed_at_ms ?? Number.POSITIVE_INFINITY);
  let f = cache.get(r.id);
  if (!f || f.sig !== sig) {
    const projected = engine.projected(r);
    const cbtAmount = engine.profile.cbt.amountBasis === 'principal' ? new D(r.amount) : new D(r.amount).plus(projected);
    if (cache.size >= FIGURES_MAX) cache.clear();
    f = { sig, projected: str(projected), cbtAmount: str(cbtAmount), accruedEnd: end, accrued: str(engine.accrued(r, at)) };
    cache.set(r.id, f);
  } else if (f.accruedEnd !== end) {
    f.accruedEnd = end;
    f.accrued = str(engine.accrued(r, at));
  }
  return f;
}

/** Views whose figures change with the business clock, and the instant they are for. */
const viewTimes = new WeakMap<object, number>();

/** The business time a view was computed for, when its figures change with time (a matched
 *  position before its maturity or close accrues interest); undefined when they do not. */
export function viewTime(view: unknown): number | undefined {
  return typeof view === 'object' && view !== null ? viewTimes.get(view) : undefined;
}

export function positionView(engine: Engine, r: PositionRow, at = engine.now()): Record<string, unknown> {
  const f = figuresOf(engine, r, at);
  const v: Record<string, unknown> = {
    positionId: r.id, status: r.status, type: r.type, userId: r.user_id, asset: r.asset, amount: r.amount, rate: r.rate,
    maturity: iso(r.maturity_ms),
    cbt: { amount: f.cbtAmount, tokenAddress: cbtTokenAddress(engine, r.asset, r.market) },
    projectedReturn: f.projected, accruedInterest: f.accrued,
    autoRollover: r.auto_rollover === 1, autoRefinance: r.auto_refinance === 1,
    createdAt: iso(r.created_at_ms), filled: r.filled, market: r.market,
  };
  if (r.matched_at_ms !== null) v.matchedAt = iso(r.matched_at_ms);
  if (r.type === 'borrow') {
    v.collateral = { asset: r.collateral_asset, amount: r.collateral_amount };
    v.outstanding = str(engine.outstanding(r, at));
  } else {
    v.mode = r.mode;
  }
  if (r.payout !== null) v.payout = r.payout;
  if (r.rolled_from) v.rolledFrom = r.rolled_from;
  if (r.rolled_to) v.rolledTo = r.rolled_to;
  if (r.matched_at_ms !== null && at < Math.min(r.maturity_ms, r.closed_at_ms ?? Number.POSITIVE_INFINITY)) viewTimes.set(v, at);
  return v;
}

/** POST /lend answers with the order as created, and without `type` (spec part 2). */
export function createLendView(r: PositionRow): Record<string, unknown> {
  return {
    positionId: r.id, status: r.status, userId: r.user_id, asset: r.asset, amount: r.amount, rate: r.rate,
    maturity: iso(r.maturity_ms), autoRollover: r.auto_rollover === 1, createdAt: iso(r.created_at_ms), mode: r.mode,
  };
}

export function createBorrowView(r: PositionRow): Record<string, unknown> {
  return {
    positionId: r.id, status: r.status, type: 'borrow', userId: r.user_id, asset: r.asset, amount: r.amount, rate: r.rate,
    maturity: iso(r.maturity_ms), collateral: { asset: r.collateral_asset, amount: r.collateral_amount },
    autoRefinance: r.auto_refinance === 1, createdAt: iso(r.created_at_ms),
  };
}

export function listItemView(r: ListRow): Record<string, unknown> {
  return {
    positionId: r.id, status: r.status, type: r.type, userId: r.user_id, asset: r.asset, amount: r.amount, rate: r.rate,
    maturity: iso(r.maturity_ms), createdAt: iso(r.created_at_ms),
  };
}
