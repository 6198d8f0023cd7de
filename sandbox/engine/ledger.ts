import type { AssetInfo, Profile } from '../../contract/index.ts';
import { decimalPlaces, DEFAULT_ASSET_INFO } from '../../contract/index.ts';
import type { Clock } from './clock.ts';
import type { SandboxConfig } from './config.ts';
import { ApiError, invalid } from '../answer/errors.ts';
import type { Db } from '../store/db.ts';
import { D, str, ZERO, type Dec } from '../money/money.ts';

// The ledger: users, balances (available and locked per asset), credits from outside
// (journalled so conservation can be checked from the file), the house account, and the
// oracle prices that value collateral. Callers open the transaction; the ledger writes.

/** The account that stands on the other side of the sandbox: it pays lenders' interest,
 *  receives borrowers' interest and seized collateral, and may go negative. */
export const HOUSE = '__house';

/** Users and balances kept in memory at most (then it starts again empty). */
const MEMO_MAX = 200_000;

export interface Balance {
  asset: string;
  available: string;
  locked: string;
}

export class Ledger {
  /** Oracle prices set through the control; memory follows the committed `oracle` rows. */
  private readonly prices = new Map<string, Dec>();
  // Users seen to exist and balances as last read or written, in front of SQLite: an order
  // read both with a SELECT each. Every write goes to both, and a rollback (the only way the
  // rows change under memory) drops them all (EngineCore.rolledBack), so each entry is what
  // SQLite would answer on this connection.
  private readonly users = new Set<string>();
  private readonly bals = new Map<string, { available: Dec; locked: Dec }>();
  private readonly st;

  constructor(
    db: Db,
    private readonly profile: Profile,
    private readonly config: SandboxConfig,
    private readonly clock: Clock,
  ) {
    this.st = {
      userExists: db.prepare('SELECT 1 FROM users WHERE partner_id = ? AND user_id = ?').pluck(),
      insertUser: db.prepare('INSERT INTO users (partner_id, user_id, created_at_ms) VALUES (?, ?, ?)'),
      getBal: db.prepare('SELECT available, locked FROM balances WHERE partner_id = ? AND user_id = ? AND asset = ?'),
      putBal: db.prepare(
        'INSERT INTO balances (partner_id, user_id, asset, available, locked) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT(partner_id, user_id, asset) DO UPDATE SET available = excluded.available, locked = excluded.locked',
      ),
      listBal: db.prepare('SELECT asset, available, locked FROM balances WHERE partner_id = ? AND user_id = ? ORDER BY asset'),
      insertExternal: db.prepare('INSERT INTO ledger_external (ts_ms, partner_id, user_id, asset, amount, kind) VALUES (?, ?, ?, ?, ?, ?)'),
      putOracle: db.prepare('INSERT INTO oracle (asset, price_usd) VALUES (?, ?) ON CONFLICT(asset) DO UPDATE SET price_usd = excluded.price_usd'),
      allOracle: db.prepare('SELECT asset, price_usd FROM oracle'),
    };
    this.reload();
  }

  /** Drops cached prices and reads the committed ones (at start and after a failed commit). */
  reload(): void {
    this.forgetRows();
    this.prices.clear();
    for (const o of this.st.allOracle.all() as Array<{ asset: string; price_usd: string }>) this.prices.set(o.asset, new D(o.price_usd));
  }

  /** A transaction rolled back: the users and balances memory held may have gone with it. */
  forgetRows(): void {
    this.users.clear();
    this.bals.clear();
  }

  // ---- assets -------------------------------------------------------------------------

  /** The profile's error for an asset outside its lists, naming the field. */
  unsupportedAsset(field: string, asset: string): ApiError {
    const e = this.profile.errors.unsupportedAsset;
    return new ApiError(e.code, `${field}: unsupported asset ${asset}`, e.status);
  }

  /** The assets the sandbox deals in: its profile's, the defaults where a (detected) profile leaves them unknown. */
  private get assetInfo(): Readonly<Record<string, AssetInfo>> {
    return this.profile.assets.info ?? DEFAULT_ASSET_INFO;
  }

  hasAsset(asset: string): boolean {
    return this.assetInfo[asset] !== undefined;
  }

  assetDecimals(asset: string, field = 'asset'): number {
    const info = this.assetInfo[asset];
    if (!info) throw this.unsupportedAsset(field, asset);
    return info.decimals;
  }

  /** Rejects amounts finer than the asset can hold: "amount: more than 6 decimal places for USDC". */
  checkPrecision(field: string, amount: string, asset: string): void {
    const dec = this.assetDecimals(asset, field.replace(/Amount$/, 'Asset').replace(/amount$/, 'asset'));
    if (decimalPlaces(amount) > dec) throw invalid(field, `has more than ${dec} decimal places for ${asset}`);
  }

  // ---- users and balances -------------------------------------------------------------

  userExists(partnerId: string, userId: string): boolean {
    const k = `${partnerId}\u0000${userId}`;
    if (this.users.has(k)) return true;
    const found = this.st.userExists.get(partnerId, userId) !== undefined;
    if (found) {
      if (this.users.size >= MEMO_MAX) this.users.clear();
      this.users.add(k);
    }
    return found;
  }

  /** Creates a user on first sight, with the configured starting funds. */
  ensureUser(partnerId: string, userId: string): void {
    if (this.userExists(partnerId, userId)) return;
    this.st.insertUser.run(partnerId, userId, this.clock.now());
    this.users.add(`${partnerId}\u0000${userId}`);
    for (const [asset, amount] of Object.entries(this.config.startingFunds)) {
      if (new D(amount).gt(0)) this.creditExternal(partnerId, userId, asset, new D(amount), 'starting_funds');
    }
  }

  /** A credit from outside the ledger, journalled with it so conservation can be checked from the file. */
  creditExternal(partnerId: string, userId: string, asset: string, amount: Dec, kind: 'starting_funds' | 'fund'): void {
    this.credit(partnerId, userId, asset, amount);
    this.st.insertExternal.run(this.clock.now(), partnerId, userId, asset, str(amount), kind);
  }

  bal(partnerId: string, userId: string, asset: string): { available: Dec; locked: Dec } {
    const k = `${partnerId}\u0000${userId}\u0000${asset}`;
    let b = this.bals.get(k);
    if (!b) {
      const r = this.st.getBal.get(partnerId, userId, asset) as { available: string; locked: string } | undefined;
      b = r ? { available: new D(r.available), locked: new D(r.locked) } : { available: ZERO, locked: ZERO };
      if (this.bals.size >= MEMO_MAX) this.bals.clear();
      this.bals.set(k, b);
    }
    // A copy: callers may hold it across the write that replaces the entry.
    return { available: b.available, locked: b.locked };
  }

  putBal(partnerId: string, userId: string, asset: string, available: Dec, locked: Dec): void {
    this.st.putBal.run(partnerId, userId, asset, str(available), str(locked));
    this.bals.set(`${partnerId}\u0000${userId}\u0000${asset}`, { available, locked });
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

  /** Takes `amount` out of locked, e.g. a lend's principal as it is filled. */
  unlock(partnerId: string, userId: string, asset: string, amount: Dec): void {
    const b = this.bal(partnerId, userId, asset);
    this.putBal(partnerId, userId, asset, b.available, b.locked.minus(amount));
  }

  house(asset: string, delta: Dec): void {
    this.credit(HOUSE, HOUSE, asset, delta);
  }

  /** The user's balance of `asset` when it covers `amount`; else fails with insufficient_funds. */
  covering(partnerId: string, userId: string, asset: string, amount: Dec): { available: Dec; locked: Dec } {
    const b = this.bal(partnerId, userId, asset);
    if (b.available.lt(amount)) {
      // A target may leave the details out (profile errors.insufficientFundsDetails); the sandbox can play one.
      const details = this.profile.errors.insufficientFundsDetails ? { required: str(amount), available: str(b.available) } : undefined;
      throw new ApiError('insufficient_funds', `insufficient funds: ${asset} available ${str(b.available)}, required ${str(amount)}`, 400, details);
    }
    return b;
  }

  /** Takes `amount` from available (into locked when `lockIt`), or fails with insufficient_funds. */
  lock(partnerId: string, userId: string, asset: string, amount: Dec, lockIt = true): void {
    const b = this.covering(partnerId, userId, asset, amount);
    this.putBal(partnerId, userId, asset, b.available.minus(amount), lockIt ? b.locked.plus(amount) : b.locked);
  }

  balances(partnerId: string, userId: string): Balance[] {
    return (this.st.listBal.all(partnerId, userId) as Balance[]).map((b) => ({ asset: b.asset, available: b.available, locked: b.locked }));
  }

  // ---- oracle -------------------------------------------------------------------------

  price(asset: string): Dec {
    const p = this.prices.get(asset);
    if (p) return p;
    const info = this.assetInfo[asset];
    if (!info) throw this.unsupportedAsset('asset', asset);
    return new D(info.oraclePriceUsd);
  }

  /** Writes a price in the caller's transaction; memory follows at once and a failed commit reloads it. */
  putPrice(asset: string, priceUsd: string): void {
    this.st.putOracle.run(asset, priceUsd);
    this.prices.set(asset, new D(priceUsd));
  }
}
