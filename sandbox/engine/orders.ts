import { isIsoDate } from '../../contract/index.ts';
import { invalid } from '../answer/errors.ts';
import { newId } from '../store/ids.ts';
import type { EngineCore } from './core.ts';
import { match } from './matching.ts';
import { D, DAY_MS, str } from '../money/money.ts';
import type { PositionRow } from '../store/rows.ts';

// Order entry: a lend or borrow request is checked against the profile, its funds or
// collateral are locked and the position is written in one transaction, then it is
// matched against the book.

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

export interface NewPosition {
  partner_id: string; user_id: string; type: 'lend' | 'borrow'; asset: string; market: string; amount: string;
  limit_rate: number; mode: string | null; auto_rollover: boolean; auto_refinance: boolean; created_at_ms: number;
  collateral_asset?: string; collateral_amount?: string; rolled_from?: string;
}

/** Resolves a request's maturity (duration or ISO date) to one of the profile's markets. */
export function resolveMarket(engine: EngineCore, maturity: string | undefined, now: number): string {
  const { profile } = engine;
  const markets = profile.markets.maturities;
  const m = maturity ?? profile.lifecycle.defaultMaturity;
  if (/^\d+d$/.test(m)) {
    if (!markets.includes(m)) throw invalid('maturity', `no market for ${m}; markets are ${markets.join(', ')}`);
    return m;
  }
  if (!isIsoDate(m)) throw invalid('maturity', 'must be an ISO date (YYYY-MM-DD) or a duration such as 30d');
  const target = Date.parse(`${m}T00:00:00Z`);
  if (target <= now) throw invalid('maturity', `${m} is not in the future`);
  const days = (target - now) / DAY_MS;
  if (profile.lifecycle.maturityDateResolution === 'exact-market') {
    const hit = markets.find((x) => Math.ceil(days) === Number.parseInt(x, 10));
    if (!hit) throw invalid('maturity', `${m} matches no market; markets are ${markets.join(', ')}`);
    return hit;
  }
  return markets.reduce((best, x) => (Math.abs(Number.parseInt(x, 10) - days) < Math.abs(Number.parseInt(best, 10) - days) ? x : best));
}

function checkOrderSize(engine: EngineCore, field: string, amount: string): void {
  const a = new D(amount);
  const { minOrder, maxOrder } = engine.profile.amounts;
  if (a.lt(minOrder)) throw invalid(field, `must be at least ${minOrder}`);
  if (a.gt(maxOrder)) throw invalid(field, `must be at most ${maxOrder}`);
}

export function lend(engine: EngineCore, partnerId: string, req: LendInput): PositionRow {
  const { profile, ledger } = engine;
  const now = engine.now();
  engine.requireMarketAsset('asset', req.asset);
  ledger.checkPrecision('amount', req.amount, req.asset);
  checkOrderSize(engine, 'amount', req.amount);
  const market = resolveMarket(engine, req.maturity, now);
  const mode = req.mode ?? 'easy';
  if (mode === 'advanced' && req.rate === undefined) throw invalid('rate', 'is required in advanced mode');
  const rate = req.rate ?? engine.quote(req.asset, market).lendRate;
  const autoRollover = req.autoRollover ?? (mode === 'easy' ? true : profile.lifecycle.autoRolloverAdvancedDefault);
  const row = engine.tx(() => {
    ledger.ensureUser(partnerId, req.userId);
    ledger.lock(partnerId, req.userId, req.asset, new D(req.amount));
    return insertPosition(engine, {
      partner_id: partnerId, user_id: req.userId, type: 'lend', asset: req.asset, market, amount: req.amount,
      limit_rate: rate, mode, auto_rollover: autoRollover, auto_refinance: false, created_at_ms: now,
    });
  });
  match(engine, row, now);
  return row;
}

export function borrow(engine: EngineCore, partnerId: string, req: BorrowInput): PositionRow {
  const { profile, ledger } = engine;
  const now = engine.now();
  const unsupported = (field: string, asset: string) => ledger.unsupportedAsset(field, asset);
  if (!profile.assets.borrow.includes(req.borrowAsset) || !ledger.hasAsset(req.borrowAsset)) throw unsupported('borrowAsset', req.borrowAsset);
  if (!profile.assets.collateral.includes(req.collateral.asset) || !ledger.hasAsset(req.collateral.asset)) {
    throw unsupported('collateral.asset', req.collateral.asset);
  }
  ledger.checkPrecision('borrowAmount', req.borrowAmount, req.borrowAsset);
  ledger.checkPrecision('collateral.amount', req.collateral.amount, req.collateral.asset);
  checkOrderSize(engine, 'borrowAmount', req.borrowAmount);
  const market = resolveMarket(engine, req.maturity, now);
  const collValue = new D(req.collateral.amount).mul(ledger.price(req.collateral.asset));
  const debtValue = new D(req.borrowAmount).mul(ledger.price(req.borrowAsset));
  // A profile that does not know the ratio (null) plays a target without one: any collateral is taken.
  const minRatio = new D(profile.amounts.minCollateralRatio ?? 0);
  if (collValue.lt(debtValue.mul(minRatio))) {
    throw invalid(
      'collateral.amount',
      `collateral worth ${collValue.toFixed(2)} USD is below the minimum ratio ${minRatio.toFixed()} of the ${debtValue.toFixed(2)} USD borrowed`,
    );
  }
  const rate = req.rate ?? engine.quote(req.borrowAsset, market).borrowRate;
  const row = engine.tx(() => {
    ledger.ensureUser(partnerId, req.userId);
    ledger.lock(partnerId, req.userId, req.collateral.asset, new D(req.collateral.amount), false);
    return insertPosition(engine, {
      partner_id: partnerId, user_id: req.userId, type: 'borrow', asset: req.borrowAsset, market, amount: req.borrowAmount,
      limit_rate: rate, mode: null, auto_rollover: false, auto_refinance: req.autoRefinance ?? profile.lifecycle.autoRefinanceDefault,
      collateral_asset: req.collateral.asset, collateral_amount: req.collateral.amount, created_at_ms: now,
    });
  });
  match(engine, row, now);
  return row;
}

/** Writes a new pending position and its position.created event (in the caller's transaction). */
export function insertPosition(engine: EngineCore, p: NewPosition): PositionRow {
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
  engine.reads.forget(row.id);
  row.seq = Number(engine.st.insertPos.run(row).lastInsertRowid);
  engine.reads.added(row);
  engine.emit(p.partner_id, 'position.created', engine.eventData(row), p.created_at_ms);
  return row;
}
