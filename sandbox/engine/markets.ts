import { LEND_ASSETS, type Profile } from '../../contract/index.ts';
import type { SandboxConfig } from './config.ts';
import type { Db } from '../store/db.ts';
import { Book } from './book.ts';
import { D } from '../money/money.ts';
import type { PositionRow } from '../store/rows.ts';

// The in-memory order books and last trade rates (rebuilt from SQLite at start and after a
// failed commit), and quotes. Matching an order against them is matching.ts.

export const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

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
