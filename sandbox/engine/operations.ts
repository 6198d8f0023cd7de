import { ApiError, invalid } from '../answer/errors.ts';
import { newId } from '../store/ids.ts';
import type { EngineCore } from './core.ts';
import { D, str, ZERO, type Dec } from '../money/money.ts';
import { isOpen, type PositionRow, type WithdrawalRow } from '../store/rows.ts';

// Operations on an existing position or account: cancel, repay, patch and withdraw, and
// the closing moves they share with the lifecycle (release, closeBorrow). Each is one
// transaction; status changes go through engine.transition (the lifecycle state machine).

export interface RepayResult {
  positionId: string;
  repaid: string;
  outstanding: string;
  status: string;
  collateralReleased: string;
}

export function cancel(engine: EngineCore, partnerId: string, positionId: string): { positionId: string; status: 'cancelled'; released: string } {
  const r = engine.getPosition(partnerId, positionId);
  const { lifecycle, errors } = engine.profile;
  const e = errors.invalidState;
  if (!lifecycle.cancellable.includes(r.status)) {
    throw new ApiError(e.code, `status: position is ${r.status}; only ${lifecycle.cancellable.join(', ')} positions can be cancelled`, e.status);
  }
  if (!new D(r.filled).isZero()) throw new ApiError(e.code, 'status: position is partially matched and can no longer be cancelled', e.status);
  const released = engine.tx(() => release(engine, r, engine.now()));
  return { positionId, status: 'cancelled', released: str(released) };
}

/** Cancels an unfilled order and gives its funds or collateral back. */
export function release(engine: EngineCore, r: PositionRow, at: number): Dec {
  engine.transition(r, 'cancelled');
  r.closed_at_ms = at;
  let released: Dec;
  if (r.type === 'lend') {
    released = new D(r.amount).minus(r.filled);
    engine.ledger.shiftLocked(r.partner_id, r.user_id, r.asset, released.neg());
  } else {
    released = new D(r.collateral_amount ?? '0');
    engine.ledger.credit(r.partner_id, r.user_id, r.collateral_asset!, released);
  }
  engine.savePosition(r);
  engine.removeFromBook(r);
  return released;
}

export function repay(engine: EngineCore, partnerId: string, positionId: string, amount?: string): RepayResult {
  const { profile, ledger } = engine;
  const r = engine.getPosition(partnerId, positionId);
  if (r.type !== 'borrow') {
    const e = profile.lifecycle.repayOnLend;
    throw new ApiError(e.code, 'positionId: only borrow positions can be repaid', e.status);
  }
  if (r.status !== 'active') {
    const e = profile.errors.invalidState;
    throw new ApiError(e.code, `status: position is ${r.status}; only active borrow positions can be repaid`, e.status);
  }
  const now = engine.now();
  const owed = engine.outstanding(r, now);
  if (amount !== undefined) ledger.checkPrecision('amount', amount, r.asset);
  const a = amount === undefined ? owed : new D(amount);
  if (a.gt(owed)) throw invalid('amount', `exceeds the outstanding ${str(owed)}`);
  return engine.tx(() => {
    ledger.lock(partnerId, r.user_id, r.asset, a, false);
    const interestDue = D.max(ZERO, engine.accrued(r, now).minus(r.interest_paid));
    const interestPart = D.min(a, interestDue);
    const principalPart = a.minus(interestPart);
    ledger.house(r.asset, interestPart);
    r.interest_paid = str(new D(r.interest_paid).plus(interestPart));
    r.debt = str(new D(r.debt).minus(principalPart));
    let collateralReleased = ZERO;
    const left = owed.minus(a);
    if (left.isZero()) {
      collateralReleased = closeBorrow(engine, r, now, profile.lifecycle.statusAfterFullRepay);
    } else {
      engine.savePosition(r);
    }
    return { positionId, repaid: str(a), outstanding: str(left), status: r.status, collateralReleased: str(collateralReleased) };
  });
}

/** Closes a borrow whose debt is settled, returning its collateral. */
export function closeBorrow(engine: EngineCore, r: PositionRow, at: number, status: string): Dec {
  engine.transition(r, status);
  r.closed_at_ms = at;
  const released = new D(r.collateral_amount ?? '0');
  engine.ledger.credit(r.partner_id, r.user_id, r.collateral_asset!, released);
  r.payout = str(released);
  engine.savePosition(r);
  if (status === 'matured') engine.emit(r.partner_id, 'position.matured', { ...engine.eventData(r), payout: str(released) }, at);
  return released;
}

export function patch(engine: EngineCore, partnerId: string, positionId: string, body: { autoRollover?: boolean; autoRefinance?: boolean }): PositionRow {
  const r = engine.getPosition(partnerId, positionId);
  if (!isOpen(r.status)) {
    const e = engine.profile.errors.invalidState;
    throw new ApiError(e.code, `status: position is ${r.status}; only pending or active positions can be changed`, e.status);
  }
  if (body.autoRollover !== undefined) r.auto_rollover = body.autoRollover ? 1 : 0;
  if (body.autoRefinance !== undefined) r.auto_refinance = body.autoRefinance ? 1 : 0;
  engine.tx(() => engine.savePosition(r));
  return r;
}

export function withdraw(engine: EngineCore, partnerId: string, userId: string, body: { asset: string; amount: string; destination: string }): WithdrawalRow {
  const { profile, ledger } = engine;
  ledger.checkPrecision('amount', body.amount, body.asset);
  if (!new RegExp(profile.withdrawals.destinationPattern).test(body.destination)) {
    throw invalid('destination', `must be an address matching ${profile.withdrawals.destinationPattern}`);
  }
  if (new D(body.amount).lt(profile.amounts.minWithdrawal)) throw invalid('amount', `must be at least ${profile.amounts.minWithdrawal}`);
  const now = engine.now();
  const id = newId('wd');
  engine.tx(() => {
    ledger.ensureUser(partnerId, userId);
    ledger.lock(partnerId, userId, body.asset, new D(body.amount), false);
    engine.st.insertWd.run(id, partnerId, userId, body.asset, str(new D(body.amount)), body.destination, now, now + engine.config.withdrawalDelaySeconds * 1000);
  });
  return engine.st.getWd.get(id) as WithdrawalRow;
}
