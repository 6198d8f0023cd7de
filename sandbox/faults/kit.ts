import { D, type Dec } from '../money/money.ts';
import type { Engine } from '../engine/engine.ts';
import type { PositionRow } from '../store/rows.ts';

// Pieces the race faults share. Each swaps one engine method on the instance for the length
// of one synchronous call (so no other request can see the swap: nothing else runs until the
// call returns) and restores it after. That way the faulty path runs the sandbox's real
// operation code with exactly one thing wrong, instead of a hand-copied variant of it.

/** Runs `fn` with `obj[method]` replaced; restored even when `fn` throws. */
export function swapped<T extends object, K extends keyof T, R>(obj: T, method: K, replacement: T[K], fn: () => R): R {
  const own = Object.prototype.hasOwnProperty.call(obj, method);
  const before = obj[method];
  obj[method] = replacement;
  try {
    return fn();
  } finally {
    if (own) obj[method] = before;
    else delete obj[method];
  }
}

/** The "check" of check-then-act: reads the user's available funds now and refuses when short. */
export function checkFunds(engine: Engine, partnerId: string, userId: string, asset: string, amount: string): void {
  if (!engine.ledger.userExists(partnerId, userId)) engine.tx(() => engine.ledger.ensureUser(partnerId, userId));
  engine.ledger.covering(partnerId, userId, asset, new D(amount));
}

/** Thrown inside a dry run to roll it back: never leaves validateFirst. */
class DryRun extends Error {}

/**
 * The real handler's own refusals, before any funds are looked at: `fn` (the real operation,
 * funds check skipped) runs in a transaction that is always rolled back (engine.tx undoes rows,
 * events and what memory kept of them), so a body the real service refuses (a maturity, an
 * asset, the collateral ratio) gets that refusal, as a service that validates before it
 * checks funds gives it; only a request the real handler would take goes on to the race. A
 * handler that answers through a promise is not dry-run (it could not be rolled back whole).
 */
export function validateFirst(engine: Engine, fn: () => unknown): void {
  try {
    engine.tx(() => {
      const out = fn();
      if (out && typeof (out as { then?: unknown }).then === 'function') return;
      throw new DryRun();
    });
  } catch (e) {
    if (!(e instanceof DryRun)) throw e;
  }
}

/** The "act" of check-then-act: the real operation, with the funds check it already passed skipped. */
export function withoutFundsCheck<R>(engine: Engine, fn: () => R): R {
  const { ledger } = engine;
  const lockUnchecked = (partnerId: string, userId: string, asset: string, amount: Dec, lockIt = true): void => {
    const b = ledger.bal(partnerId, userId, asset);
    ledger.putBal(partnerId, userId, asset, b.available.minus(amount), lockIt ? b.locked.plus(amount) : b.locked);
  };
  return swapped(ledger, 'lock', lockUnchecked, fn);
}

/** Runs `fn` with every read of the position answering the copy read before the gap. */
export function withStaleRow<R>(engine: Engine, stale: PositionRow, fn: () => R): R {
  const real = engine.getPosition.bind(engine);
  const read = (partnerId: string, positionId: string): PositionRow => (positionId === stale.id ? { ...stale } : real(partnerId, positionId));
  return swapped(engine, 'getPosition', read, fn);
}
