import type { Engine } from './engine.ts';
import { D, str, ZERO } from '../money/money.ts';
import type { PositionRow, WithdrawalRow } from '../store/rows.ts';
import { iso } from '../store/rows.ts';
import { recordSnapshot } from './market-data.ts';

// Work the clock makes due: the liquidity provider's fills, maturities (with rollover and
// refinance), liquidations and withdrawal completions. Each item runs in its own
// transaction, stamped with the business time it fell due, so a jump of the clock by
// months plays out in order instead of all at "now".

const MAX_ROUNDS = 10_000;

/** `liquidations`: the collateral scan of every active borrow (the default), or `{ tickMs, passMs }`
 *  for the background timer's slice of it (see liquidationSlice): prices move through the oracle
 *  control, which always scans everything. */
export function runDueWork(engine: Engine, now = engine.now(), opts: { liquidations?: boolean | { tickMs: number; passMs: number } } = {}): number {
  let done = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const n = liquidityRound(engine, now) + maturityRound(engine, now) + withdrawalRound(engine, now);
    done += n;
    if (n === 0) break;
  }
  const l = opts.liquidations ?? true;
  if (l === true) done += liquidationRound(engine, now);
  else if (l !== false) done += liquidationSlice(engine, now, l.tickMs, l.passMs);
  recordSnapshot(engine, now);
  engine.persistClock();
  return done;
}

function liquidityRound(engine: Engine, now: number): number {
  const lp = engine.config.liquidity;
  if (!lp.enabled) return 0;
  const due = engine.db
    .prepare("SELECT id, created_at_ms FROM positions WHERE status = 'pending' AND created_at_ms <= ? AND maturity_ms > created_at_ms + ? ORDER BY created_at_ms, seq")
    .all(now - lp.delaySeconds * 1000, lp.delaySeconds * 1000) as Array<{ id: string; created_at_ms: number }>;
  for (const d of due) engine.liquidityFill(d.id, d.created_at_ms + lp.delaySeconds * 1000);
  return due.length;
}

function maturityRound(engine: Engine, now: number): number {
  const due = engine.db
    .prepare("SELECT id FROM positions WHERE status IN ('pending', 'active') AND maturity_ms <= ? ORDER BY maturity_ms, seq")
    .pluck()
    .all(now) as string[];
  for (const id of due) {
    // Re-read: an earlier item of this round (a rollover that matched) may have changed it.
    const r = engine.row(id);
    if (!r || (r.status !== 'pending' && r.status !== 'active')) continue;
    if (r.status === 'pending') expire(engine, r);
    else if (r.type === 'lend') matureLend(engine, r);
    else matureBorrow(engine, r);
  }
  return due.length;
}

/** An order still pending at its maturity: nothing filled → cancelled; part filled → that part runs to term. */
function expire(engine: Engine, r: PositionRow): void {
  const at = r.maturity_ms;
  if (new D(r.filled).isZero()) {
    engine.tx(() => engine.release(r, at));
    return;
  }
  engine.tx(() => {
    const rest = new D(r.amount).minus(r.filled);
    if (r.type === 'lend') {
      engine.ledger.shiftLocked(r.partner_id, r.user_id, r.asset, rest.neg());
    }
    r.amount = r.filled;
    engine.removeFromBook(r);
    engine.applyFill(r, ZERO, r.limit_rate, at);
  });
  const fresh = engine.row(r.id)!;
  if (fresh.type === 'lend') matureLend(engine, fresh);
  else matureBorrow(engine, fresh);
}

function matureLend(engine: Engine, r: PositionRow): void {
  const at = r.maturity_ms;
  const earned = engine.accrued(r, at);
  const payout = new D(r.filled).plus(earned);
  engine.tx(() => {
    engine.ledger.house(r.asset, earned.neg());
    engine.transition(r, 'matured');
    r.closed_at_ms = at;
    r.payout = str(payout);
    engine.ledger.credit(r.partner_id, r.user_id, r.asset, payout);
    let next: PositionRow | undefined;
    if (r.auto_rollover) {
      // The payout rolls into a fresh order in the same market at the market rate.
      engine.ledger.shiftLocked(r.partner_id, r.user_id, r.asset, payout);
      next = engine.insertPosition({
        partner_id: r.partner_id, user_id: r.user_id, type: 'lend', asset: r.asset, market: r.market, amount: str(payout),
        limit_rate: engine.quote(r.asset, r.market).lendRate, mode: r.mode, auto_rollover: true, auto_refinance: false,
        created_at_ms: at, rolled_from: r.id,
      });
      r.rolled_to = next.id;
    }
    engine.savePosition(r);
    engine.emit(r.partner_id, 'position.matured', { ...engine.eventData(r), payout: str(payout) }, at);
    if (next) engine.emit(r.partner_id, 'position.rolled', { ...engine.eventData(r), newPositionId: next.id }, at);
    return next;
  });
  if (r.rolled_to) engine.match(r.rolled_to, at);
}

function matureBorrow(engine: Engine, r: PositionRow): void {
  const at = r.maturity_ms;
  const owed = engine.outstanding(r, at);
  if (owed.isZero()) {
    engine.tx(() => engine.closeBorrow(r, at, 'matured'));
    return;
  }
  if (!r.auto_refinance) {
    liquidate(engine, r, at);
    return;
  }
  // Refinance: the debt, interest included, becomes a new active loan on the same collateral.
  engine.tx(() => {
    const interestDue = owed.minus(r.debt);
    engine.ledger.house(r.asset, interestDue);
    const collateral = r.collateral_amount!;
    engine.transition(r, 'matured');
    r.closed_at_ms = at;
    r.interest_paid = str(new D(r.interest_paid).plus(interestDue));
    r.debt = '0';
    r.payout = '0';
    const rate = engine.quote(r.asset, r.market).borrowRate;
    const next = engine.insertPosition({
      partner_id: r.partner_id, user_id: r.user_id, type: 'borrow', asset: r.asset, market: r.market, amount: str(owed),
      limit_rate: rate, mode: null, auto_rollover: false, auto_refinance: true, created_at_ms: at,
      collateral_asset: r.collateral_asset!, collateral_amount: collateral, rolled_from: r.id,
    });
    // The new loan is funded by the old one's settlement, not by the book.
    next.filled = next.amount;
    next.fill_value = str(new D(next.amount).mul(String(rate)));
    next.debt = next.amount;
    next.rate = rate;
    next.matched_at_ms = at;
    engine.transition(next, 'active');
    engine.savePosition(next);
    engine.emit(next.partner_id, 'position.matched', engine.eventData(next, 'position.matched'), at);
    r.collateral_amount = '0';
    r.rolled_to = next.id;
    engine.savePosition(r);
    engine.emit(r.partner_id, 'position.matured', { ...engine.eventData(r), payout: '0' }, at);
    engine.emit(r.partner_id, 'position.rolled', { ...engine.eventData(r), newPositionId: next.id }, at);
  });
}

/** Seizes all collateral to the house, which takes over the unpaid principal. */
export function liquidate(engine: Engine, r: PositionRow, at: number): void {
  engine.tx(() => {
    const seized = new D(r.collateral_amount ?? '0');
    engine.ledger.house(r.collateral_asset!, seized);
    engine.ledger.house(r.asset, new D(r.debt).neg());
    engine.transition(r, engine.profile.lifecycle.statusAfterLiquidation);
    r.closed_at_ms = at;
    r.payout = '0';
    engine.savePosition(r);
    engine.emit(r.partner_id, 'position.liquidated', { ...engine.eventData(r), collateralSeized: str(seized) }, at);
  });
}

/** Active borrows whose collateral, at oracle prices, fell under the liquidation ratio. */
export function liquidationRound(engine: Engine, now: number): number {
  const rows = engine.db.prepare("SELECT * FROM positions WHERE type = 'borrow' AND status = 'active'").all() as PositionRow[];
  return liquidateUnderwater(engine, rows, now);
}

/** Where each engine's background scan stands: the last seq checked, and how many active
 *  borrows the pass so far and the previous whole pass saw. */
const sweeps = new WeakMap<Engine, { after: number; seen: number; lastPass: number }>();
const sliceQueries = new WeakMap<Engine, { all(...p: unknown[]): unknown[] }>();

/**
 * The background timer's collateral scan, a slice per tick: enough active borrows (by seq,
 * wrapping around) that a whole pass takes about `passMs` of ticks every `tickMs`. The scan of
 * every borrow at once held the event loop for as long as it took (under a matching load, tens
 * of thousands of borrows: hundreds of ms, every order waiting behind it); the slices check each
 * borrow as often as before, in pieces. Clock jumps and oracle prices still scan everything.
 */
export function liquidationSlice(engine: Engine, now: number, tickMs: number, passMs: number): number {
  let s = sweeps.get(engine);
  if (!s) sweeps.set(engine, (s = { after: 0, seen: 0, lastPass: 0 }));
  let q = sliceQueries.get(engine);
  if (!q) {
    q = engine.db.prepare("SELECT * FROM positions WHERE type = 'borrow' AND status = 'active' AND seq > ? ORDER BY seq LIMIT ?");
    sliceQueries.set(engine, q);
  }
  const limit = Math.max(64, Math.ceil((s.lastPass * tickMs) / passMs));
  const rows = q.all(s.after, limit) as PositionRow[];
  s.seen += rows.length;
  if (rows.length < limit) {
    // The pass is complete: the next tick starts again from the first borrow.
    s.lastPass = s.seen;
    s.seen = 0;
    s.after = 0;
  } else s.after = rows[rows.length - 1].seq;
  return liquidateUnderwater(engine, rows, now);
}

function liquidateUnderwater(engine: Engine, rows: PositionRow[], now: number): number {
  const threshold = new D(engine.profile.amounts.liquidationRatio);
  let n = 0;
  for (const stale of rows) {
    const r = engine.row(stale.id);
    if (!r || r.status !== 'active') continue;
    const owedValue = engine.outstanding(r, now).mul(engine.price(r.asset));
    if (owedValue.isZero()) continue;
    const collValue = new D(r.collateral_amount ?? '0').mul(engine.price(r.collateral_asset!));
    if (collValue.div(owedValue).lt(threshold)) {
      liquidate(engine, r, now);
      n++;
    }
  }
  return n;
}

function withdrawalRound(engine: Engine, now: number): number {
  const due = engine.db
    .prepare("SELECT * FROM withdrawals WHERE status = 'pending' AND due_ms <= ? ORDER BY due_ms")
    .all(now) as WithdrawalRow[];
  for (const w of due) {
    engine.tx(() => {
      engine.db.prepare("UPDATE withdrawals SET status = 'completed', completed_at_ms = ? WHERE id = ?").run(w.due_ms, w.id);
      engine.emit(w.partner_id, 'withdrawal.completed', withdrawalView({ ...w, status: 'completed', completed_at_ms: w.due_ms }), w.due_ms);
    });
  }
  return due.length;
}

export function withdrawalView(w: WithdrawalRow): Record<string, unknown> {
  const v: Record<string, unknown> = {
    withdrawalId: w.id, userId: w.user_id, asset: w.asset, amount: w.amount, destination: w.destination,
    status: w.status, createdAt: iso(w.created_at_ms),
  };
  if (w.completed_at_ms !== null) v.completedAt = iso(w.completed_at_ms);
  return v;
}
