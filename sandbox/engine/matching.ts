import type { Resting } from './book.ts';
import type { EngineCore } from './core.ts';
import { D, meanRate, str, type Dec } from '../money/money.ts';
import type { PositionRow } from '../store/rows.ts';

// Matching: price-time matching of an order against the opposite side of its book, or
// against the built-in liquidity provider. The books and quotes are markets.ts.

interface Fill {
  resting: Resting;
  amount: Dec;
  rate: number;
}

/** Matches a pending order against the opposite side at the resting orders' rates
 *  (price-time priority); the rest of it then rests in the book. */
export function match(engine: EngineCore, position: string | PositionRow, at: number): void {
  const row = typeof position === 'string' ? engine.row(position) : { ...position };
  if (!row || row.status !== 'pending') return;
  const m = engine.markets;
  const book = m.book(row.asset, row.market);
  const opposite = row.type === 'lend' ? book.borrows : book.lends;
  let remaining = new D(row.amount).minus(row.filled);
  const fills: Fill[] = [];
  for (const o of opposite.inOrder()) {
    if (remaining.isZero()) break;
    const crosses = row.type === 'lend' ? o.rate >= row.limit_rate : o.rate <= row.limit_rate;
    if (!crosses) break;
    const x = D.min(remaining, o.remaining);
    fills.push({ resting: o, amount: x, rate: o.rate });
    remaining = remaining.minus(x);
  }
  if (fills.length) {
    engine.tx(() => {
      for (const f of fills) {
        const other = engine.row(f.resting.positionId)!;
        const [lend, borrow] = row.type === 'lend' ? [row, other] : [other, row];
        applyFill(engine, lend, f.amount, f.rate, at);
        applyFill(engine, borrow, f.amount, f.rate, at);
        engine.st.insertFill.run(at, row.asset, row.market, lend.id, borrow.id, str(f.amount), f.rate);
      }
    });
    // Memory follows the committed rows only.
    for (const f of fills) {
      f.resting.remaining = f.resting.remaining.minus(f.amount);
      if (f.resting.remaining.isZero()) opposite.remove(f.resting);
    }
    m.lastRate.set(`${row.asset}|${row.market}`, fills[fills.length - 1].rate);
  }
  if (!remaining.isZero()) {
    book.side(row.type).add({ positionId: row.id, seq: row.seq, rate: row.limit_rate, remaining });
  }
}

/** Fills part of one side of a trade (or against the built-in liquidity provider). */
export function applyFill(engine: EngineCore, r: PositionRow, x: Dec, rate: number, at: number): void {
  r.filled = str(new D(r.filled).plus(x));
  r.fill_value = str(new D(r.fill_value).plus(x.mul(new D(String(rate)))));
  if (r.type === 'lend') {
    engine.ledger.unlock(r.partner_id, r.user_id, r.asset, x);
  } else {
    engine.ledger.credit(r.partner_id, r.user_id, r.asset, x);
    r.debt = str(new D(r.debt).plus(x));
  }
  if (new D(r.filled).eq(r.amount)) {
    engine.transition(r, 'active');
    r.matched_at_ms = at;
    r.rate = meanRate(r.fill_value, r.filled);
    engine.savePosition(r);
    engine.emit(r.partner_id, 'position.matched', engine.eventData(r, 'position.matched'), at);
  } else {
    engine.savePosition(r);
  }
}

/** The built-in liquidity provider takes the rest of an order at the order's own limit rate. */
export function liquidityFill(engine: EngineCore, positionId: string, at: number): void {
  const r = engine.row(positionId);
  if (!r || r.status !== 'pending') return;
  const remaining = new D(r.amount).minus(r.filled);
  engine.tx(() => {
    applyFill(engine, r, remaining, r.limit_rate, at);
    engine.st.insertFill.run(at, r.asset, r.market, r.type === 'lend' ? r.id : null, r.type === 'borrow' ? r.id : null, str(remaining), r.limit_rate);
  });
  engine.markets.removeFromBook(r);
  engine.markets.lastRate.set(`${r.asset}|${r.market}`, r.limit_rate);
}
