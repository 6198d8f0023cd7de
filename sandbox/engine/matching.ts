import { LEND_ASSETS, type Profile } from '../../contract/index.ts';
import type { SandboxConfig } from '../config.ts';
import type { Db } from '../store/db.ts';
import { Book, type Resting } from './book.ts';
import type { Engine } from './engine.ts';
import { D, meanRate, str, type Dec } from './money.ts';
import type { PositionRow } from './rows.ts';

// Books and matching: the in-memory order books and last trade rates (rebuilt from SQLite
// at start and after a failed commit), quotes, and price-time matching of an order against
// the opposite side or the built-in liquidity provider.

export const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

interface Fill {
  resting: Resting;
  amount: Dec;
  rate: number;
}

export class Markets {
  readonly books = new Map<string, Book>();
  /** Rate of each market's last fill: the reference for quotes on an empty book. */
  readonly lastRate = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly profile: Profile,
    private readonly config: SandboxConfig,
  ) {
    this.reload();
  }

  /** Drops the books and last rates and rebuilds them from committed rows. */
  reload(): void {
    this.books.clear();
    this.lastRate.clear();
    const pending = this.db.prepare("SELECT * FROM positions WHERE status = 'pending' ORDER BY seq").all() as PositionRow[];
    for (const r of pending) {
      const remaining = new D(r.amount).minus(r.filled);
      if (remaining.gt(0)) this.book(r.asset, r.market).side(r.type).add({ positionId: r.id, seq: r.seq, rate: r.limit_rate, remaining });
    }
    const last = this.db
      .prepare('SELECT asset, market, rate FROM fills WHERE seq IN (SELECT MAX(seq) FROM fills GROUP BY asset, market)')
      .all() as Array<{ asset: string; market: string; rate: number }>;
    for (const l of last) this.lastRate.set(`${l.asset}|${l.market}`, l.rate);
  }

  marketAssets(): string[] {
    return [...new Set<string>([...LEND_ASSETS, ...this.profile.assets.borrow])];
  }

  book(asset: string, market: string): Book {
    const k = `${asset}|${market}`;
    let b = this.books.get(k);
    if (!b) this.books.set(k, (b = new Book()));
    return b;
  }

  /** Best rates a lender and a borrower get now; the reference rate stands in for an empty side. */
  quote(asset: string, market: string): { lendRate: number; borrowRate: number; spread: number } {
    const b = this.book(asset, market);
    const h = this.config.halfSpread;
    const ref = this.lastRate.get(`${asset}|${market}`) ?? this.config.referenceRates[market] ?? 0.05;
    const bestBorrow = b.borrows.best()?.rate;
    const bestLend = b.lends.best()?.rate;
    let lendRate: number;
    let borrowRate: number;
    if (bestBorrow !== undefined && bestLend !== undefined) [lendRate, borrowRate] = [bestBorrow, bestLend];
    else if (bestBorrow !== undefined) [lendRate, borrowRate] = [bestBorrow, bestBorrow + 2 * h];
    else if (bestLend !== undefined) [lendRate, borrowRate] = [Math.max(0, bestLend - 2 * h), bestLend];
    else [lendRate, borrowRate] = [Math.max(0, ref - h), ref + h];
    lendRate = Math.min(round6(lendRate), 0.999999);
    borrowRate = Math.min(round6(borrowRate), 0.999999);
    return { lendRate, borrowRate, spread: round6(borrowRate - lendRate) };
  }

  removeFromBook(r: PositionRow): void {
    this.book(r.asset, r.market).side(r.type).remove({ rate: r.limit_rate, seq: r.seq });
  }
}

/** Matches a pending order against the opposite side at the resting orders' rates
 *  (price-time priority); the rest of it then rests in the book. */
export function match(engine: Engine, position: string | PositionRow, at: number): void {
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
export function applyFill(engine: Engine, r: PositionRow, x: Dec, rate: number, at: number): void {
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
export function liquidityFill(engine: Engine, positionId: string, at: number): void {
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
