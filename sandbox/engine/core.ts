import type { Profile } from '../../contract/index.ts';
import type { Clock } from './clock.ts';
import type { SandboxConfig } from './config.ts';
import type { Db } from '../store/db.ts';
import type { Book } from './book.ts';
import { Ledger } from './ledger.ts';
import { Markets } from './markets.ts';
import type { Dec } from '../money/money.ts';
import { type ListPage, type ListQuery, Reads } from './reads.ts';
import type { PositionRow } from '../store/rows.ts';
import { Lifecycle } from './state-machine.ts';
import { EngineStore } from './store.ts';

// The layer the engine's operations stand on: the store (transactions, the outbox), the
// ledger, the books, the lifecycle's transition table and the read model, wired to one
// database. orders.ts, matching.ts and operations.ts take this, never the Engine facade
// (engine.ts) that calls them, so the arrows run one way: facade → operations → core.

export class EngineCore extends EngineStore {
  readonly ledger: Ledger;
  readonly markets: Markets;
  readonly lifecycle: Lifecycle;
  readonly reads: Reads;

  constructor(
    db: Db,
    readonly profile: Profile,
    clock: Clock,
    readonly config: SandboxConfig,
  ) {
    super(db, clock);
    this.lifecycle = new Lifecycle(profile);
    this.ledger = new Ledger(db, profile, config, clock);
    this.reads = new Reads(db, profile, this.ledger, (undo) => this.journal(undo));
    this.markets = new Markets(db, profile, config);
  }

  /** A transaction rolled back: cached rows it may have read go (the user keys took their
   *  own changes back through the journal). */
  protected rolledBack(): void {
    this.reads.forgetRows();
    this.ledger.forgetRows();
  }

  /** A failed commit rolled back rows the caches had followed: every cache is rebuilt. */
  protected reloadCaches(): void {
    this.reads.reload();
    this.markets.reload();
    this.ledger.reload();
  }

  // ---- books and quotes ---------------------------------------------------------------

  marketAssets(): string[] {
    return this.markets.marketAssets();
  }
  /** The one unsupported-asset check of an order's or a read's asset: the profile's error unless it has markets. */
  requireMarketAsset(field: string, asset: string): void {
    if (!this.marketAssets().includes(asset)) throw this.ledger.unsupportedAsset(field, asset);
  }
  book(asset: string, market: string): Book {
    return this.markets.book(asset, market);
  }
  quote(asset: string, market: string) {
    return this.markets.quote(asset, market);
  }
  removeFromBook(r: PositionRow): void {
    this.markets.removeFromBook(r);
  }

  // ---- positions: store and lifecycle -------------------------------------------------

  savePosition(r: PositionRow): void {
    this.reads.forget(r.id);
    this.st.updPos.run(r);
    this.reads.statusChanged(r);
  }
  /** Moves a position to a new status, refusing moves the profile's transition table does not list. */
  transition(r: PositionRow, to: string): void {
    this.lifecycle.transition(r, to);
  }

  // ---- reads --------------------------------------------------------------------------

  row(positionId: string): PositionRow | undefined {
    return this.reads.row(positionId);
  }
  getPosition(partnerId: string, positionId: string): PositionRow {
    return this.reads.getPosition(partnerId, positionId);
  }
  /** getPosition for a view only: the row may be the shared, frozen copy of the row cache. */
  viewPosition(partnerId: string, positionId: string): Readonly<PositionRow> {
    return this.reads.getPosition(partnerId, positionId, true);
  }
  accrued(r: PositionRow, at: number): Dec {
    return this.reads.accrued(r, at);
  }
  projected(r: PositionRow): Dec {
    return this.reads.projected(r);
  }
  outstanding(r: PositionRow, at: number): Dec {
    return this.reads.outstanding(r, at);
  }
  eventData(r: PositionRow, type?: string): Record<string, unknown> {
    return this.reads.eventData(r, type);
  }
  listPositions(partnerId: string, userId: string, q: ListQuery, shape: 'rows' | 'json' = 'rows'): ListPage {
    return this.reads.listPositions(partnerId, userId, q, shape);
  }
}
