import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Profile } from '../../contract/index.ts';
import { decimalPlaces, LEND_ASSETS, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, isIsoDate } from '../../contract/index.ts';
import type { Clock } from '../clock.ts';
import type { SandboxConfig } from '../config.ts';
import { ApiError, invalid } from '../errors.ts';
import { getMeta, setMeta, type Db } from '../store/db.ts';
import { Book, type Resting } from './book.ts';
import { D, DAY_MS, interest, str, ZERO, type Dec } from './money.ts';
import { iso, isOpen, type OutboxEvent, type PositionRow, type WithdrawalRow } from './rows.ts';

/** The account that stands on the other side of the sandbox: it pays lenders' interest,
 *  receives borrowers' interest and seized collateral, and may go negative. */
export const HOUSE = '__house';

export interface LendInput {
  userId: string;
  asset: string;
  amount: string;
  rate?: number;
  maturity?: string;
  mode?: 'easy' | 'advanced';
  autoRollover?: boolean;
}

export interface BorrowInput {
  userId: string;
  collateral: { asset: string; amount: string };
  borrowAsset: string;
  borrowAmount: string;
  rate?: number;
  maturity?: string;
  autoRefinance?: boolean;
}

export interface ListQuery {
  status?: string;
  type?: string;
  limit?: number;
  cursor?: string;
}

export interface Balance {
  asset: string;
  available: string;
  locked: string;
}

interface Fill {
  resting: Resting;
  amount: Dec;
  rate: number;
}

const LIST_COLUMNS = 'id, status, type, user_id, asset, amount, rate, maturity_ms, created_at_ms';
export type ListRow = Pick<PositionRow, 'id' | 'status' | 'type' | 'user_id' | 'asset' | 'amount' | 'rate' | 'maturity_ms' | 'created_at_ms'>;

// Captured at load so a test's fake timers cannot stall commits.
const nextTurn = setImmediate;

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
// randomUUID draws from a cached entropy pool; randomBytes per id was a measurable cost.
const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

export class Engine {
  readonly books = new Map<string, Book>();
  private readonly lastRate = new Map<string, number>();
  private readonly prices = new Map<string, Dec>();
  private readonly listeners = new Set<(events: OutboxEvent[]) => void>();
  private pendingEvents: OutboxEvent[] = [];
  private depth = 0;
  private batch: { done: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | undefined;
  /** Batches the writes of one event-loop turn into one commit (see tx). */
  groupCommit = false;
  private readonly cursorKey: string;
  private readonly st;
  private readonly listStmts = new Map<string, ReturnType<Db['prepare']>>();
  /** Runs after every committed change; the app wires lifecycle work here. */
  onChange: () => void = () => {};

  constructor(
    readonly db: Db,
    readonly profile: Profile,
    readonly clock: Clock,
    readonly config: SandboxConfig,
  ) {
    this.runInTx = db.transaction((fn: () => unknown) => fn());
    this.st = {
      userExists: db.prepare('SELECT 1 FROM users WHERE partner_id = ? AND user_id = ?').pluck(),
      insertUser: db.prepare('INSERT INTO users (partner_id, user_id, created_at_ms) VALUES (?, ?, ?)'),
      getBal: db.prepare('SELECT available, locked FROM balances WHERE partner_id = ? AND user_id = ? AND asset = ?'),
      putBal: db.prepare(
        'INSERT INTO balances (partner_id, user_id, asset, available, locked) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT(partner_id, user_id, asset) DO UPDATE SET available = excluded.available, locked = excluded.locked',
      ),
      listBal: db.prepare('SELECT asset, available, locked FROM balances WHERE partner_id = ? AND user_id = ? ORDER BY asset'),
      insertPos: db.prepare(
        `INSERT INTO positions (id, partner_id, user_id, type, asset, market, amount, filled, fill_value, limit_rate, rate,
          maturity_ms, status, mode, auto_rollover, auto_refinance, collateral_asset, collateral_amount, debt, interest_paid,
          created_at_ms, matched_at_ms, rolled_from)
         VALUES (@id, @partner_id, @user_id, @type, @asset, @market, @amount, @filled, @fill_value, @limit_rate, @rate,
          @maturity_ms, @status, @mode, @auto_rollover, @auto_refinance, @collateral_asset, @collateral_amount, @debt, @interest_paid,
          @created_at_ms, @matched_at_ms, @rolled_from)`,
      ),
      getPos: db.prepare('SELECT * FROM positions WHERE id = ?'),
      updPos: db.prepare(
        `UPDATE positions SET amount = @amount, filled = @filled, fill_value = @fill_value, rate = @rate, status = @status,
          auto_rollover = @auto_rollover, auto_refinance = @auto_refinance, collateral_amount = @collateral_amount,
          debt = @debt, interest_paid = @interest_paid, payout = @payout, matched_at_ms = @matched_at_ms,
          closed_at_ms = @closed_at_ms, rolled_to = @rolled_to WHERE id = @id`,
      ),
      insertFill: db.prepare('INSERT INTO fills (ts_ms, asset, market, lend_id, borrow_id, amount, rate) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      insertEvent: db.prepare('INSERT INTO outbox_events (id, partner_id, type, payload, created_at_ms) VALUES (?, ?, ?, ?, ?) RETURNING seq'),
      insertWd: db.prepare(
        `INSERT INTO withdrawals (id, partner_id, user_id, asset, amount, destination, status, created_at_ms, due_ms)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      ),
      insertExternal: db.prepare('INSERT INTO ledger_external (ts_ms, partner_id, user_id, asset, amount, kind) VALUES (?, ?, ?, ?, ?, ?)'),
      putOracle: db.prepare('INSERT INTO oracle (asset, price_usd) VALUES (?, ?) ON CONFLICT(asset) DO UPDATE SET price_usd = excluded.price_usd'),
    };
    let key = getMeta(db, 'cursor_key');
    if (!key) {
      key = randomBytes(32).toString('hex');
      setMeta(db, 'cursor_key', key);
    }
    this.cursorKey = key;
    this.restore();
  }

  now(): number {
    return this.clock.now();
  }

  // ---- transactions and the outbox -------------------------------------------------

  /** One SQLite transaction; events it emitted reach listeners only after it commits.
   *  With group commit on, transactions that start in the same turn of the event loop run
   *  as savepoints of one batch that commits at setImmediate: one WAL commit for many
   *  writes. A failing transaction still rolls back alone (its savepoint). Callers that
   *  acknowledge a write wait for `settled()` first, so nothing is acknowledged before it
   *  is durable. */
  /** Failed batches rolled back so far; read models keyed on write counts include it. */
  rollbacks = 0;

  // One wrapper for every call: db.transaction(fn) builds a new one each time (3 % of an order's CPU).
  private readonly runInTx: (fn: () => unknown) => unknown;

  tx<T>(fn: () => T): T {
    if (this.groupCommit && this.depth === 0 && !this.batch && !this.db.inTransaction) this.openBatch();
    this.depth++;
    const mark = this.pendingEvents.length;
    let out: T;
    try {
      out = this.runInTx(fn) as T;
    } catch (e) {
      this.depth--;
      // Rolled back (a savepoint when nested): its events never happened.
      this.pendingEvents.length = mark;
      throw e;
    }
    this.depth--;
    if (this.depth === 0 && !this.batch) this.afterCommit();
    return out;
  }

  /** Resolves once everything written so far is committed (at once when nothing is open). */
  settled(): Promise<void> {
    return this.batch ? this.batch.done : Promise.resolve();
  }

  /** Commits an open batch now (close() and tests call this). */
  commitNow(): void {
    const b = this.batch;
    if (!b) return;
    this.batch = undefined;
    try {
      if (this.db.inTransaction) this.db.exec('COMMIT');
    } catch (e) {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // the rollback error adds nothing to the commit error
      }
      // Memory followed rows that are now gone: rebuild it from what is stored.
      this.rollbacks++;
      this.pendingEvents = [];
      this.books.clear();
      this.restore();
      b.reject(e);
      return;
    }
    this.afterCommit();
    b.resolve();
  }

  private openBatch(): void {
    this.db.exec('BEGIN IMMEDIATE');
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    done.catch(() => {}); // a failed batch is reported to each waiter, not as unhandled
    this.batch = { done, resolve, reject };
    nextTurn(() => this.commitNow());
  }

  private afterCommit(): void {
    const events = this.pendingEvents;
    this.pendingEvents = [];
    if (events.length) for (const l of this.listeners) l(events);
    this.onChange();
  }

  /** Appends an event to the outbox in the current transaction (autocommit outside one). */
  emit(partnerId: string, type: string, data: Record<string, unknown>, atMs = this.now()): OutboxEvent {
    const id = newId('evt');
    const envelope = { id, type, timestamp: iso(atMs), data };
    const seq = this.st.insertEvent.pluck().get(id, partnerId, type, JSON.stringify(envelope), atMs) as number;
    const ev: OutboxEvent = { seq, id, partnerId, type, envelope };
    if (this.depth > 0 || this.batch) this.pendingEvents.push(ev);
    else for (const l of this.listeners) l([ev]);
    return ev;
  }

  /** Called with the events of each committed transaction (the webhook dispatcher's wake-up). */
  onEvents(listener: (events: OutboxEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- ledger -------------------------------------------------------------------------

  /** The profile's error for an asset outside its lists, naming the field. */
  unsupportedAsset(field: string, asset: string): ApiError {
    const e = this.profile.errors.unsupportedAsset;
    return new ApiError(e.code, `${field}: unsupported asset ${asset}`, e.status);
  }

  assetDecimals(asset: string, field = 'asset'): number {
    const info = this.profile.assets.info[asset];
    if (!info) throw this.unsupportedAsset(field, asset);
    return info.decimals;
  }

  /** Rejects amounts finer than the asset can hold: "amount: more than 6 decimal places for USDC". */
  checkPrecision(field: string, amount: string, asset: string): void {
    const dec = this.assetDecimals(asset, field.replace(/Amount$/, 'Asset').replace(/amount$/, 'asset'));
    if (decimalPlaces(amount) > dec) throw invalid(field, `has more than ${dec} decimal places for ${asset}`);
  }

  private ensureUser(partnerId: string, userId: string): void {
    if (this.st.userExists.get(partnerId, userId)) return;
    this.st.insertUser.run(partnerId, userId, this.now());
    for (const [asset, amount] of Object.entries(this.config.startingFunds)) {
      if (new D(amount).gt(0)) this.creditExternal(partnerId, userId, asset, new D(amount), 'starting_funds');
    }
  }

  /** A credit from outside the ledger, journalled with it so conservation can be checked from the file. */
  private creditExternal(partnerId: string, userId: string, asset: string, amount: Dec, kind: 'starting_funds' | 'fund'): void {
    this.credit(partnerId, userId, asset, amount);
    this.st.insertExternal.run(this.now(), partnerId, userId, asset, str(amount), kind);
  }

  bal(partnerId: string, userId: string, asset: string): { available: Dec; locked: Dec } {
    const r = this.st.getBal.get(partnerId, userId, asset) as { available: string; locked: string } | undefined;
    return r ? { available: new D(r.available), locked: new D(r.locked) } : { available: ZERO, locked: ZERO };
  }

  private putBal(partnerId: string, userId: string, asset: string, available: Dec, locked: Dec): void {
    this.st.putBal.run(partnerId, userId, asset, str(available), str(locked));
  }

  /** Adds `amount` (negative to take) to available; callers check funds first. */
  credit(partnerId: string, userId: string, asset: string, amount: Dec): void {
    if (amount.isZero()) return;
    const b = this.bal(partnerId, userId, asset);
    this.putBal(partnerId, userId, asset, b.available.plus(amount), b.locked);
  }

  /** Moves `amount` from available into locked (negative: back out of locked). */
  shiftLocked(partnerId: string, userId: string, asset: string, amount: Dec): void {
    const b = this.bal(partnerId, userId, asset);
    this.putBal(partnerId, userId, asset, b.available.minus(amount), b.locked.plus(amount));
  }

  house(asset: string, delta: Dec): void {
    this.credit(HOUSE, HOUSE, asset, delta);
  }

  /** Moves `amount` from available to locked, or fails with insufficient_funds. */
  private lock(partnerId: string, userId: string, asset: string, amount: Dec, lockIt = true): void {
    const b = this.bal(partnerId, userId, asset);
    if (b.available.lt(amount)) {
      throw new ApiError('insufficient_funds', `insufficient funds: ${asset} available ${str(b.available)}, required ${str(amount)}`, 400, {
        required: str(amount),
        available: str(b.available),
      });
    }
    this.putBal(partnerId, userId, asset, b.available.minus(amount), lockIt ? b.locked.plus(amount) : b.locked);
  }

  fund(partnerId: string, userId: string, asset: string, amount: string): Balance[] {
    this.checkPrecision('amount', amount, asset);
    this.tx(() => {
      this.ensureUser(partnerId, userId);
      this.creditExternal(partnerId, userId, asset, new D(amount), 'fund');
    });
    return this.balances(partnerId, userId);
  }

  balances(partnerId: string, userId: string): Balance[] {
    if (!this.st.userExists.get(partnerId, userId)) this.tx(() => this.ensureUser(partnerId, userId));
    return (this.st.listBal.all(partnerId, userId) as Balance[]).map((b) => ({ asset: b.asset, available: b.available, locked: b.locked }));
  }

  // ---- oracle -------------------------------------------------------------------------

  price(asset: string): Dec {
    const p = this.prices.get(asset);
    if (p) return p;
    const info = this.profile.assets.info[asset];
    if (!info) throw this.unsupportedAsset('asset', asset);
    return new D(info.oraclePriceUsd);
  }

  setOraclePrice(asset: string, priceUsd: string): { asset: string; priceUsd: string } {
    this.assetDecimals(asset);
    this.tx(() => this.st.putOracle.run(asset, priceUsd));
    this.prices.set(asset, new D(priceUsd));
    return { asset, priceUsd: str(new D(priceUsd)) };
  }

  // ---- markets and quotes -------------------------------------------------------------

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

  /** Resolves a request's maturity (duration or ISO date) to one of the profile's markets. */
  resolveMarket(maturity: string | undefined, now: number): string {
    const markets = this.profile.markets.maturities;
    const m = maturity ?? this.profile.lifecycle.defaultMaturity;
    if (/^\d+d$/.test(m)) {
      if (!markets.includes(m)) throw invalid('maturity', `no market for ${m}; markets are ${markets.join(', ')}`);
      return m;
    }
    if (!isIsoDate(m)) throw invalid('maturity', 'must be an ISO date (YYYY-MM-DD) or a duration such as 30d');
    const target = Date.parse(`${m}T00:00:00Z`);
    if (target <= now) throw invalid('maturity', `${m} is not in the future`);
    const days = (target - now) / DAY_MS;
    if (this.profile.lifecycle.maturityDateResolution === 'exact-market') {
      const hit = markets.find((x) => Math.ceil(days) === Number.parseInt(x, 10));
      if (!hit) throw invalid('maturity', `${m} matches no market; markets are ${markets.join(', ')}`);
      return hit;
    }
    return markets.reduce((best, x) => (Math.abs(Number.parseInt(x, 10) - days) < Math.abs(Number.parseInt(best, 10) - days) ? x : best));
  }

  private checkOrderSize(field: string, amount: string): void {
    const a = new D(amount);
    const { minOrder, maxOrder } = this.profile.amounts;
    if (a.lt(minOrder)) throw invalid(field, `must be at least ${minOrder}`);
    if (a.gt(maxOrder)) throw invalid(field, `must be at most ${maxOrder}`);
  }

  // ---- orders -------------------------------------------------------------------------

  lend(partnerId: string, req: LendInput): PositionRow {
    const now = this.now();
    if (!this.marketAssets().includes(req.asset)) throw this.unsupportedAsset('asset', req.asset);
    this.checkPrecision('amount', req.amount, req.asset);
    this.checkOrderSize('amount', req.amount);
    const market = this.resolveMarket(req.maturity, now);
    const mode = req.mode ?? 'easy';
    if (mode === 'advanced' && req.rate === undefined) throw invalid('rate', 'is required in advanced mode');
    const rate = req.rate ?? this.quote(req.asset, market).lendRate;
    const autoRollover = req.autoRollover ?? (mode === 'easy' ? true : this.profile.lifecycle.autoRolloverAdvancedDefault);
    const row = this.tx(() => {
      this.ensureUser(partnerId, req.userId);
      this.lock(partnerId, req.userId, req.asset, new D(req.amount));
      return this.insertPosition({
        partner_id: partnerId, user_id: req.userId, type: 'lend', asset: req.asset, market, amount: req.amount,
        limit_rate: rate, mode, auto_rollover: autoRollover, auto_refinance: false, created_at_ms: now,
      });
    });
    this.match(row, now);
    return row;
  }

  borrow(partnerId: string, req: BorrowInput): PositionRow {
    const now = this.now();
    const unsupported = (field: string, asset: string) => this.unsupportedAsset(field, asset);
    if (!this.profile.assets.borrow.includes(req.borrowAsset) || !this.profile.assets.info[req.borrowAsset]) throw unsupported('borrowAsset', req.borrowAsset);
    if (!this.profile.assets.collateral.includes(req.collateral.asset) || !this.profile.assets.info[req.collateral.asset]) {
      throw unsupported('collateral.asset', req.collateral.asset);
    }
    this.checkPrecision('borrowAmount', req.borrowAmount, req.borrowAsset);
    this.checkPrecision('collateral.amount', req.collateral.amount, req.collateral.asset);
    this.checkOrderSize('borrowAmount', req.borrowAmount);
    const market = this.resolveMarket(req.maturity, now);
    const collValue = new D(req.collateral.amount).mul(this.price(req.collateral.asset));
    const debtValue = new D(req.borrowAmount).mul(this.price(req.borrowAsset));
    const minRatio = new D(this.profile.amounts.minCollateralRatio);
    if (collValue.lt(debtValue.mul(minRatio))) {
      throw invalid(
        'collateral.amount',
        `collateral worth ${collValue.toFixed(2)} USD is below the minimum ratio ${minRatio.toFixed()} of the ${debtValue.toFixed(2)} USD borrowed`,
      );
    }
    const rate = req.rate ?? this.quote(req.borrowAsset, market).borrowRate;
    const row = this.tx(() => {
      this.ensureUser(partnerId, req.userId);
      this.lock(partnerId, req.userId, req.collateral.asset, new D(req.collateral.amount), false);
      return this.insertPosition({
        partner_id: partnerId, user_id: req.userId, type: 'borrow', asset: req.borrowAsset, market, amount: req.borrowAmount,
        limit_rate: rate, mode: null, auto_rollover: false, auto_refinance: req.autoRefinance ?? this.profile.lifecycle.autoRefinanceDefault,
        collateral_asset: req.collateral.asset, collateral_amount: req.collateral.amount, created_at_ms: now,
      });
    });
    this.match(row, now);
    return row;
  }

  insertPosition(p: {
    partner_id: string; user_id: string; type: 'lend' | 'borrow'; asset: string; market: string; amount: string;
    limit_rate: number; mode: string | null; auto_rollover: boolean; auto_refinance: boolean; created_at_ms: number;
    collateral_asset?: string; collateral_amount?: string; rolled_from?: string;
  }): PositionRow {
    const durationDays = Number.parseInt(p.market, 10);
    const row: PositionRow = {
      seq: 0, id: newId('pos'), partner_id: p.partner_id, user_id: p.user_id, type: p.type, asset: p.asset, market: p.market,
      amount: str(new D(p.amount)), filled: '0', fill_value: '0', limit_rate: p.limit_rate, rate: p.limit_rate,
      maturity_ms: p.created_at_ms + durationDays * DAY_MS, status: 'pending', mode: p.mode,
      auto_rollover: p.auto_rollover ? 1 : 0, auto_refinance: p.auto_refinance ? 1 : 0,
      collateral_asset: p.collateral_asset ?? null, collateral_amount: p.collateral_amount ? str(new D(p.collateral_amount)) : null,
      debt: '0', interest_paid: '0', payout: null, created_at_ms: p.created_at_ms, matched_at_ms: null, closed_at_ms: null,
      rolled_from: p.rolled_from ?? null, rolled_to: null,
    };
    // The row is built here rather than read back: one SELECT * less on the order path.
    row.seq = Number(this.st.insertPos.run(row).lastInsertRowid);
    this.emit(p.partner_id, 'position.created', this.eventData(row), p.created_at_ms);
    return row;
  }

  savePosition(r: PositionRow): void {
    this.st.updPos.run(r);
  }

  /** Moves a position to a new status, refusing moves the profile's transition table does not list. */
  transition(r: PositionRow, to: string): void {
    const allowed = this.profile.lifecycle.transitions[r.status] ?? [];
    if (!allowed.includes(to)) {
      const e = this.profile.errors.invalidState;
      throw new ApiError(e.code, `status: position is ${r.status} and cannot become ${to}`, e.status);
    }
    r.status = to;
  }

  // ---- matching -----------------------------------------------------------------------

  /** Matches a pending order against the opposite side at the resting orders' rates
   *  (price-time priority); the rest of it then rests in the book. */
  match(position: string | PositionRow, at: number): void {
    const row = typeof position === 'string' ? (this.st.getPos.get(position) as PositionRow | undefined) : { ...position };
    if (!row || row.status !== 'pending') return;
    const book = this.book(row.asset, row.market);
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
      this.tx(() => {
        for (const f of fills) {
          const other = this.st.getPos.get(f.resting.positionId) as PositionRow;
          const [lend, borrow] = row.type === 'lend' ? [row, other] : [other, row];
          this.applyFill(lend, f.amount, f.rate, at);
          this.applyFill(borrow, f.amount, f.rate, at);
          this.st.insertFill.run(at, row.asset, row.market, lend.id, borrow.id, str(f.amount), f.rate);
        }
      });
      // Memory follows the committed rows only.
      for (const f of fills) {
        f.resting.remaining = f.resting.remaining.minus(f.amount);
        if (f.resting.remaining.isZero()) opposite.remove(f.resting);
      }
      this.lastRate.set(`${row.asset}|${row.market}`, fills[fills.length - 1].rate);
    }
    if (!remaining.isZero()) {
      book.side(row.type).add({ positionId: row.id, seq: row.seq, rate: row.limit_rate, remaining });
    }
  }

  /** Fills part of one side of a trade (or against the built-in liquidity provider). */
  applyFill(r: PositionRow, x: Dec, rate: number, at: number): void {
    r.filled = str(new D(r.filled).plus(x));
    r.fill_value = str(new D(r.fill_value).plus(x.mul(new D(String(rate)))));
    if (r.type === 'lend') {
      const b = this.bal(r.partner_id, r.user_id, r.asset);
      this.putBal(r.partner_id, r.user_id, r.asset, b.available, b.locked.minus(x));
    } else {
      this.credit(r.partner_id, r.user_id, r.asset, x);
      r.debt = str(new D(r.debt).plus(x));
    }
    if (new D(r.filled).eq(r.amount)) {
      this.transition(r, 'active');
      r.matched_at_ms = at;
      r.rate = round6(new D(r.fill_value).div(r.filled).toNumber());
      this.savePosition(r);
      this.emit(r.partner_id, 'position.matched', this.eventData(r, 'position.matched'), at);
    } else {
      this.savePosition(r);
    }
  }

  /** The built-in liquidity provider takes the rest of an order at the order's own limit rate. */
  liquidityFill(positionId: string, at: number): void {
    const r = this.st.getPos.get(positionId) as PositionRow | undefined;
    if (!r || r.status !== 'pending') return;
    const remaining = new D(r.amount).minus(r.filled);
    this.tx(() => {
      this.applyFill(r, remaining, r.limit_rate, at);
      this.st.insertFill.run(at, r.asset, r.market, r.type === 'lend' ? r.id : null, r.type === 'borrow' ? r.id : null, str(remaining), r.limit_rate);
    });
    this.book(r.asset, r.market).side(r.type).remove({ rate: r.limit_rate, seq: r.seq });
    this.lastRate.set(`${r.asset}|${r.market}`, r.limit_rate);
  }

  removeFromBook(r: PositionRow): void {
    this.book(r.asset, r.market).side(r.type).remove({ rate: r.limit_rate, seq: r.seq });
  }

  // ---- reads --------------------------------------------------------------------------

  row(positionId: string): PositionRow | undefined {
    return this.st.getPos.get(positionId) as PositionRow | undefined;
  }

  /** A partner's position; another partner's is indistinguishable from a missing one. */
  getPosition(partnerId: string, positionId: string): PositionRow {
    const r = this.row(positionId);
    if (!r || r.partner_id !== partnerId) throw new ApiError('position_not_found', `positionId: no position ${positionId}`, 404);
    return r;
  }

  /** Interest earned (lend) or owed (borrow) up to `at`, on the filled principal from matchedAt. */
  accrued(r: PositionRow, at: number): Dec {
    if (r.matched_at_ms === null) return ZERO;
    const end = Math.min(at, r.maturity_ms, r.closed_at_ms ?? Number.POSITIVE_INFINITY);
    return interest(new D(r.filled), r.rate, end - r.matched_at_ms, this.assetDecimals(r.asset));
  }

  projected(r: PositionRow): Dec {
    const start = r.matched_at_ms ?? r.created_at_ms;
    return interest(new D(r.amount), r.rate, r.maturity_ms - start, this.assetDecimals(r.asset));
  }

  /** What a borrower still owes: principal plus interest accrued and not yet paid. */
  outstanding(r: PositionRow, at: number): Dec {
    if (r.type !== 'borrow' || !isOpen(r.status)) return ZERO;
    const due = D.max(ZERO, this.accrued(r, at).minus(r.interest_paid));
    return new D(r.debt).plus(due);
  }

  /** Event data of a position (shapes.eventDataShapes). */
  eventData(r: PositionRow, type?: string): Record<string, unknown> {
    const data: Record<string, unknown> = {
      positionId: r.id, userId: r.user_id, type: r.type, asset: r.asset, amount: r.amount, rate: r.rate,
      maturity: iso(r.maturity_ms), status: r.status,
    };
    if (type === 'position.matched' && !this.profile.webhooks.matchedIncludesType) delete data.type;
    return data;
  }

  positionForEvent(partnerId: string, positionId: string): Record<string, unknown> {
    return this.eventData(this.getPosition(partnerId, positionId));
  }

  listPositions(partnerId: string, userId: string, q: ListQuery): { rows: ListRow[]; nextCursor?: string; hasMore: boolean } {
    let limit = q.limit ?? LIST_LIMIT_DEFAULT;
    if (limit > LIST_LIMIT_MAX) {
      if (this.profile.pagination.overMax === 'reject') throw invalid('limit', `must be at most ${LIST_LIMIT_MAX}`);
      limit = LIST_LIMIT_MAX;
    }
    if (this.profile.errors.unknownUser === 'position_not_found' && !this.st.userExists.get(partnerId, userId)) {
      throw new ApiError('position_not_found', `userId: no positions for user ${userId}`, 404);
    }
    const desc = this.profile.pagination.order === 'created-desc';
    const scope = `${partnerId}\u0000${userId}\u0000${q.status ?? ''}\u0000${q.type ?? ''}`;
    let after: { c: number; i: string } | undefined;
    if (q.cursor !== undefined) after = this.decodeCursor(q.cursor, scope);
    const key = `${q.status ? 's' : ''}${q.type ? 't' : ''}${after ? 'c' : ''}`;
    let stmt = this.listStmts.get(key);
    if (!stmt) {
      const cmp = desc ? '<' : '>';
      const dir = desc ? 'DESC' : 'ASC';
      stmt = this.db.prepare(
        // Only the list's columns: materialising all 27 per row dominated the list's cost.
        `SELECT ${LIST_COLUMNS} FROM positions WHERE partner_id = @p AND user_id = @u` +
          (q.status ? ' AND status = @s' : '') +
          (q.type ? ' AND type = @t' : '') +
          (after ? ` AND (created_at_ms ${cmp} @c OR (created_at_ms = @c AND id ${cmp} @i))` : '') +
          ` ORDER BY created_at_ms ${dir}, id ${dir} LIMIT @n`,
      );
      this.listStmts.set(key, stmt);
    }
    const params: Record<string, unknown> = { p: partnerId, u: userId, n: limit + 1 };
    if (q.status) params.s = q.status;
    if (q.type) params.t = q.type;
    if (after) Object.assign(params, after);
    const rows = stmt.all(params) as ListRow[];
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    const last = rows[rows.length - 1];
    return { rows, hasMore, nextCursor: hasMore ? this.encodeCursor({ c: last.created_at_ms, i: last.id }, scope) : undefined };
  }

  // The cursor is a keyset position (createdAt, id) bound to its query and signed, so it is
  // opaque, survives inserts (keyset, not offset) and a tampered one is refused.
  private encodeCursor(pos: { c: number; i: string }, scope: string): string {
    const body = Buffer.from(JSON.stringify(pos)).toString('base64url');
    return `${body}.${this.cursorMac(body, scope)}`;
  }

  private decodeCursor(cursor: string, scope: string): { c: number; i: string } {
    const bad = () => invalid('cursor', 'is not a cursor this list returned');
    const [body, mac, extra] = cursor.split('.');
    if (!body || !mac || extra !== undefined || mac !== this.cursorMac(body, scope)) throw bad();
    let v: unknown;
    try {
      v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    const o = v as { c?: unknown; i?: unknown };
    if (typeof o?.c !== 'number' || typeof o.i !== 'string') throw bad();
    return { c: o.c, i: o.i };
  }

  private cursorMac(body: string, scope: string): string {
    return createHmac('sha256', this.cursorKey).update(`${scope}\u0000${body}`).digest('base64url').slice(0, 22);
  }

  // ---- position operations ------------------------------------------------------------

  cancel(partnerId: string, positionId: string): { positionId: string; status: 'cancelled'; released: string } {
    const r = this.getPosition(partnerId, positionId);
    const e = this.profile.errors.invalidState;
    if (!this.profile.lifecycle.cancellable.includes(r.status)) {
      throw new ApiError(e.code, `status: position is ${r.status}; only ${this.profile.lifecycle.cancellable.join(', ')} positions can be cancelled`, e.status);
    }
    if (!new D(r.filled).isZero()) throw new ApiError(e.code, 'status: position is partially matched and can no longer be cancelled', e.status);
    const released = this.tx(() => this.release(r, this.now()));
    return { positionId, status: 'cancelled', released: str(released) };
  }

  /** Cancels an unfilled order and gives its funds or collateral back. */
  release(r: PositionRow, at: number): Dec {
    this.transition(r, 'cancelled');
    r.closed_at_ms = at;
    let released: Dec;
    if (r.type === 'lend') {
      released = new D(r.amount).minus(r.filled);
      const b = this.bal(r.partner_id, r.user_id, r.asset);
      this.putBal(r.partner_id, r.user_id, r.asset, b.available.plus(released), b.locked.minus(released));
    } else {
      released = new D(r.collateral_amount ?? '0');
      this.credit(r.partner_id, r.user_id, r.collateral_asset!, released);
    }
    this.savePosition(r);
    this.removeFromBook(r);
    return released;
  }

  repay(partnerId: string, positionId: string, amount?: string) {
    const r = this.getPosition(partnerId, positionId);
    if (r.type !== 'borrow') {
      const e = this.profile.lifecycle.repayOnLend;
      throw new ApiError(e.code, 'positionId: only borrow positions can be repaid', e.status);
    }
    if (r.status !== 'active') {
      const e = this.profile.errors.invalidState;
      throw new ApiError(e.code, `status: position is ${r.status}; only active borrow positions can be repaid`, e.status);
    }
    const now = this.now();
    const owed = this.outstanding(r, now);
    if (amount !== undefined) this.checkPrecision('amount', amount, r.asset);
    const a = amount === undefined ? owed : new D(amount);
    if (a.gt(owed)) throw invalid('amount', `exceeds the outstanding ${str(owed)}`);
    return this.tx(() => {
      this.lock(partnerId, r.user_id, r.asset, a, false);
      const interestDue = D.max(ZERO, this.accrued(r, now).minus(r.interest_paid));
      const interestPart = D.min(a, interestDue);
      const principalPart = a.minus(interestPart);
      this.house(r.asset, interestPart);
      r.interest_paid = str(new D(r.interest_paid).plus(interestPart));
      r.debt = str(new D(r.debt).minus(principalPart));
      let collateralReleased = ZERO;
      const left = owed.minus(a);
      if (left.isZero()) {
        collateralReleased = this.closeBorrow(r, now, this.profile.lifecycle.statusAfterFullRepay);
      } else {
        this.savePosition(r);
      }
      return { positionId, repaid: str(a), outstanding: str(left), status: r.status, collateralReleased: str(collateralReleased) };
    });
  }

  /** Closes a borrow whose debt is settled, returning its collateral. */
  closeBorrow(r: PositionRow, at: number, status: string): Dec {
    r.status = status;
    r.closed_at_ms = at;
    const released = new D(r.collateral_amount ?? '0');
    this.credit(r.partner_id, r.user_id, r.collateral_asset!, released);
    r.payout = str(released);
    this.savePosition(r);
    if (status === 'matured') this.emit(r.partner_id, 'position.matured', { ...this.eventData(r), payout: str(released) }, at);
    return released;
  }

  patch(partnerId: string, positionId: string, body: { autoRollover?: boolean; autoRefinance?: boolean }): PositionRow {
    const r = this.getPosition(partnerId, positionId);
    if (!isOpen(r.status)) {
      const e = this.profile.errors.invalidState;
      throw new ApiError(e.code, `status: position is ${r.status}; only pending or active positions can be changed`, e.status);
    }
    if (body.autoRollover !== undefined) r.auto_rollover = body.autoRollover ? 1 : 0;
    if (body.autoRefinance !== undefined) r.auto_refinance = body.autoRefinance ? 1 : 0;
    this.tx(() => this.savePosition(r));
    return r;
  }

  withdraw(partnerId: string, userId: string, body: { asset: string; amount: string; destination: string }): WithdrawalRow {
    this.checkPrecision('amount', body.amount, body.asset);
    if (!new RegExp(this.profile.withdrawals.destinationPattern).test(body.destination)) {
      throw invalid('destination', 'must be an address: 0x followed by 40 hex digits');
    }
    if (new D(body.amount).lt(this.profile.amounts.minWithdrawal)) throw invalid('amount', `must be at least ${this.profile.amounts.minWithdrawal}`);
    const now = this.now();
    const id = newId('wd');
    this.tx(() => {
      this.ensureUser(partnerId, userId);
      this.lock(partnerId, userId, body.asset, new D(body.amount), false);
      this.st.insertWd.run(id, partnerId, userId, body.asset, str(new D(body.amount)), body.destination, now, now + this.config.withdrawalDelaySeconds * 1000);
    });
    return this.db.prepare('SELECT * FROM withdrawals WHERE id = ?').get(id) as WithdrawalRow;
  }

  // ---- restart ------------------------------------------------------------------------

  /** Rebuilds the in-memory books, last trade rates and oracle prices from SQLite. */
  private restore(): void {
    const pending = this.db.prepare("SELECT * FROM positions WHERE status = 'pending' ORDER BY seq").all() as PositionRow[];
    for (const r of pending) {
      const remaining = new D(r.amount).minus(r.filled);
      if (remaining.gt(0)) this.book(r.asset, r.market).side(r.type).add({ positionId: r.id, seq: r.seq, rate: r.limit_rate, remaining });
    }
    const last = this.db
      .prepare('SELECT asset, market, rate FROM fills WHERE seq IN (SELECT MAX(seq) FROM fills GROUP BY asset, market)')
      .all() as Array<{ asset: string; market: string; rate: number }>;
    for (const l of last) this.lastRate.set(`${l.asset}|${l.market}`, l.rate);
    for (const o of this.db.prepare('SELECT asset, price_usd FROM oracle').all() as Array<{ asset: string; price_usd: string }>) {
      this.prices.set(o.asset, new D(o.price_usd));
    }
  }

  persistClock(): void {
    setMeta(this.db, 'clock_ms', String(this.now()));
  }
}
