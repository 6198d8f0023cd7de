import type { RunResult, Statement } from 'better-sqlite3';
import type { Clock } from './clock.ts';
import { setMeta, type Db } from '../store/db.ts';
import { appendOutboxEvent, type OutboxEvent } from '../store/outbox.ts';
import type { PositionRow } from '../store/rows.ts';

// Store and transactions: the engine's prepared statements over positions, fills and
// withdrawals, one SQLite transaction per change (with group commit), and the outbox
// whose events reach listeners only after their commit.

// Captured at load so a test's fake timers cannot stall commits.
const nextTurn = setImmediate;

// The columns a new position is written with, in the order positionValues binds them.
const POSITION_COLUMNS = [
  'id', 'partner_id', 'user_id', 'type', 'asset', 'market', 'amount', 'filled', 'fill_value', 'limit_rate', 'rate', 'maturity_ms',
  'status', 'mode', 'auto_rollover', 'auto_refinance', 'collateral_asset', 'collateral_amount', 'debt', 'interest_paid',
  'created_at_ms', 'matched_at_ms', 'rolled_from',
] as const;

/** A new position's values in POSITION_COLUMNS order. Bound by position: naming 23
 *  parameters from the row object cost a sixth of the insert (bench, alternating rounds). */
export function positionValues(r: PositionRow): unknown[] {
  return [
    r.id, r.partner_id, r.user_id, r.type, r.asset, r.market, r.amount, r.filled, r.fill_value, r.limit_rate, r.rate, r.maturity_ms,
    r.status, r.mode, r.auto_rollover, r.auto_refinance, r.collateral_asset, r.collateral_amount, r.debt, r.interest_paid,
    r.created_at_ms, r.matched_at_ms, r.rolled_from,
  ];
}

/** The position insert as the engine calls it: `run(row)`, its SQL on `source` (a fault builds its own from it). */
function rowInsert(stmt: Statement): { source: string; run(r: PositionRow): RunResult } {
  return { source: stmt.source, run: (r) => stmt.run(...positionValues(r)) };
}

/** Named so the package's declared types can spell it (tsc's TS4058 on an inferred return). */
export interface Statements {
  insertPos: ReturnType<typeof rowInsert>;
  getPos: Statement;
  updPos: Statement;
  insertFill: Statement;
  insertWd: Statement;
  getWd: Statement;
}

export function prepareStatements(db: Db): Statements {
  return {
    insertPos: rowInsert(db.prepare(`INSERT INTO positions (${POSITION_COLUMNS.join(', ')}) VALUES (${POSITION_COLUMNS.map(() => '?').join(', ')})`)),
    getPos: db.prepare('SELECT * FROM positions WHERE id = ?'),
    updPos: db.prepare(
      `UPDATE positions SET amount = @amount, filled = @filled, fill_value = @fill_value, rate = @rate, status = @status,
        auto_rollover = @auto_rollover, auto_refinance = @auto_refinance, collateral_amount = @collateral_amount,
        debt = @debt, interest_paid = @interest_paid, payout = @payout, matched_at_ms = @matched_at_ms,
        closed_at_ms = @closed_at_ms, rolled_to = @rolled_to WHERE id = @id`,
    ),
    insertFill: db.prepare('INSERT INTO fills (ts_ms, asset, market, lend_id, borrow_id, amount, rate) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    insertWd: db.prepare(
      `INSERT INTO withdrawals (id, partner_id, user_id, asset, amount, destination, status, created_at_ms, due_ms)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    ),
    getWd: db.prepare('SELECT * FROM withdrawals WHERE id = ?'),
  };
}

export abstract class EngineStore {
  /** Batches the writes of one event-loop turn into one commit (see tx). */
  groupCommit = false;
  /** Failed batches rolled back so far; read models keyed on write counts include it. */
  rollbacks = 0;
  readonly st: Statements;
  private readonly listeners = new Set<(events: OutboxEvent[]) => void>();
  private pendingEvents: OutboxEvent[] = [];
  // How to take back what memory changed inside the open transaction, newest last: a
  // rolled-back savepoint runs its own entries in reverse, a commit drops them all.
  private readonly undo: Array<() => void> = [];
  private depth = 0;
  private batch: { done: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | undefined;
  // One wrapper for every call: db.transaction(fn) builds a new one each time (3 % of an order's CPU).
  private readonly runInTx: (fn: () => unknown) => unknown;

  constructor(
    readonly db: Db,
    readonly clock: Clock,
  ) {
    this.runInTx = db.transaction((fn: () => unknown) => fn());
    this.st = prepareStatements(db);
  }

  /** Rebuilds every in-memory cache from what is stored (after a failed commit). */
  protected abstract reloadCaches(): void;

  /** A transaction (or savepoint) rolled back: drop what memory read inside it. */
  protected abstract rolledBack(): void;

  now(): number {
    return this.clock.now();
  }

  /** One SQLite transaction; events it emitted reach listeners only after it commits.
   *  With group commit on, transactions that start in the same turn of the event loop run
   *  as savepoints of one batch that commits at setImmediate: one WAL commit for many
   *  writes. A failing transaction still rolls back alone (its savepoint). Callers that
   *  acknowledge a write wait for `settled()` first, so nothing is acknowledged before it
   *  is durable. */
  tx<T>(fn: () => T): T {
    if (this.groupCommit && this.depth === 0 && !this.batch && !this.db.inTransaction) this.openBatch();
    this.depth++;
    const mark = this.pendingEvents.length;
    const undoMark = this.undo.length;
    let out: T;
    try {
      out = this.runInTx(fn) as T;
    } catch (e) {
      this.depth--;
      // Rolled back (a savepoint when nested): its events never happened, and what memory
      // kept of its rows goes with it.
      this.pendingEvents.length = mark;
      for (let i = this.undo.length - 1; i >= undoMark; i--) this.undo[i]!();
      this.undo.length = undoMark;
      this.rolledBack();
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

  /** The commit that covers everything written so far, or undefined when nothing is open
   *  (a read then answers at once, without a turn of the microtask queue). */
  pendingCommit(): Promise<void> | undefined {
    return this.batch?.done;
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
      this.undo.length = 0;
      this.reloadCaches();
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

  /** Records how to take back an in-memory change if the open transaction rolls back;
   *  outside a transaction the change is final and nothing is kept. */
  journal(undo: () => void): void {
    if (this.depth > 0 || this.batch) this.undo.push(undo);
  }

  private afterCommit(): void {
    this.undo.length = 0;
    const events = this.pendingEvents;
    this.pendingEvents = [];
    if (events.length) for (const l of this.listeners) l(events);
  }

  /** Appends an event to the outbox in the current transaction (autocommit outside one). */
  emit(partnerId: string, type: string, data: Record<string, unknown>, atMs = this.now()): OutboxEvent {
    const ev = appendOutboxEvent(this.db, partnerId, type, data, atMs);
    if (this.depth > 0 || this.batch) this.pendingEvents.push(ev);
    else for (const l of this.listeners) l([ev]);
    return ev;
  }

  /** Called with the events of each committed transaction (the webhook dispatcher's wake-up). */
  onEvents(listener: (events: OutboxEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  persistClock(): void {
    setMeta(this.db, 'clock_ms', String(this.now()));
  }
}
