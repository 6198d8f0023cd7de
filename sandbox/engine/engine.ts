import { EngineCore } from './core.ts';
import { type Balance, HOUSE } from './ledger.ts';
import { applyFill, liquidityFill, match } from './matching.ts';
import { D, str, type Dec } from '../money/money.ts';
import * as ops from './operations.ts';
import * as orders from './orders.ts';
import type { PositionRow, WithdrawalRow } from '../store/rows.ts';

// The sandbox's engine: the facade that the HTTP resolvers, the lifecycle runner and the
// read models call. It adds the operations to the layer they stand on (core.ts), and the
// operations take that layer, not this facade, so the imports run one way:
//   engine.ts → orders.ts, operations.ts, matching.ts → core.ts → store, ledger, books, reads
//   store.ts          transactions, group commit, the outbox
//   core.ts           the store with the ledger, books, transition table and read model
//   ledger.ts         users, balances, external credits, the house, oracle prices
//   markets.ts        books, last rates and quotes
//   matching.ts       matching and the liquidity provider
//   orders.ts         lend and borrow order entry
//   state-machine.ts  the lifecycle's transition table: the one way a status changes
//   operations.ts     cancel, repay, patch, withdraw and the closing moves
//   reads.ts          positions, interest figures, event data, the signed list cursor

export { HOUSE, type Balance };
export type { BorrowInput, LendInput } from './orders.ts';
export type { ListQuery, ListRow } from './reads.ts';

export class Engine extends EngineCore {
  // ---- ledger -------------------------------------------------------------------------

  unsupportedAsset(field: string, asset: string) {
    return this.ledger.unsupportedAsset(field, asset);
  }

  fund(partnerId: string, userId: string, asset: string, amount: string): Balance[] {
    this.ledger.checkPrecision('amount', amount, asset);
    this.tx(() => {
      this.ledger.ensureUser(partnerId, userId);
      this.ledger.creditExternal(partnerId, userId, asset, new D(amount), 'fund');
    });
    return this.balances(partnerId, userId);
  }

  balances(partnerId: string, userId: string): Balance[] {
    if (!this.ledger.userExists(partnerId, userId)) this.tx(() => this.ledger.ensureUser(partnerId, userId));
    return this.ledger.balances(partnerId, userId);
  }

  /** A partner's users, newest first (at most `limit`), with their balances: the console's user list. */
  users(partnerId: string, limit = 200): Array<{ userId: string; createdAtMs: number; balances: Balance[] }> {
    const rows = this.db
      .prepare('SELECT user_id, created_at_ms FROM users WHERE partner_id = ? ORDER BY created_at_ms DESC, user_id LIMIT ?')
      .all(partnerId, limit) as Array<{ user_id: string; created_at_ms: number }>;
    return rows.map((r) => ({ userId: r.user_id, createdAtMs: r.created_at_ms, balances: this.ledger.balances(partnerId, r.user_id) }));
  }

  price(asset: string): Dec {
    return this.ledger.price(asset);
  }

  setOraclePrice(asset: string, priceUsd: string): { asset: string; priceUsd: string } {
    this.ledger.assetDecimals(asset);
    this.tx(() => this.ledger.putPrice(asset, priceUsd));
    return { asset, priceUsd: str(new D(priceUsd)) };
  }

  // ---- books, quotes and orders -------------------------------------------------------

  lend(partnerId: string, req: orders.LendInput): PositionRow {
    return orders.lend(this, partnerId, req);
  }
  borrow(partnerId: string, req: orders.BorrowInput): PositionRow {
    return orders.borrow(this, partnerId, req);
  }
  insertPosition(p: orders.NewPosition): PositionRow {
    return orders.insertPosition(this, p);
  }
  match(position: string | PositionRow, at: number): void {
    match(this, position, at);
  }
  applyFill(r: PositionRow, x: Dec, rate: number, at: number): void {
    applyFill(this, r, x, rate, at);
  }
  liquidityFill(positionId: string, at: number): void {
    liquidityFill(this, positionId, at);
  }

  // ---- reads --------------------------------------------------------------------------

  positionForEvent(partnerId: string, positionId: string): Record<string, unknown> {
    return this.eventData(this.getPosition(partnerId, positionId));
  }

  // ---- operations ---------------------------------------------------------------------

  cancel(partnerId: string, positionId: string) {
    return ops.cancel(this, partnerId, positionId);
  }
  release(r: PositionRow, at: number): Dec {
    return ops.release(this, r, at);
  }
  repay(partnerId: string, positionId: string, amount?: string): ops.RepayResult {
    return ops.repay(this, partnerId, positionId, amount);
  }
  closeBorrow(r: PositionRow, at: number, status: string): Dec {
    return ops.closeBorrow(this, r, at, status);
  }
  patch(partnerId: string, positionId: string, body: { autoRollover?: boolean; autoRefinance?: boolean }): PositionRow {
    return ops.patch(this, partnerId, positionId, body);
  }
  withdraw(partnerId: string, userId: string, body: { asset: string; amount: string; destination: string }): WithdrawalRow {
    return ops.withdraw(this, partnerId, userId, body);
  }
}
