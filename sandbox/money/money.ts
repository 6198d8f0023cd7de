import { Decimal } from 'decimal.js';

// Money never touches a JS float: amounts live as decimal strings in SQLite and as
// Decimal in arithmetic. Precision is raised so 18-decimal assets stay exact.
export const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN, toExpNeg: -80, toExpPos: 80 });
export type Dec = InstanceType<typeof D>;

export const ZERO = new D(0);

/** Canonical decimal string (no exponent, no trailing zeros), the form responses use. */
export function str(d: Dec): string {
  return d.toFixed();
}

/** Rounds down to an asset's decimals, so interest never creates dust the ledger cannot hold. */
export function toAsset(d: Dec, decimals: number): Dec {
  return d.toDecimalPlaces(decimals, D.ROUND_DOWN);
}

export const YEAR_MS = 365 * 86_400_000;
export const DAY_MS = 86_400_000;

/** Simple interest on `principal` at `rate` over `ms`, rounded down to the asset. */
export function interest(principal: Dec, rate: number, ms: number, decimals: number): Dec {
  if (ms <= 0 || rate <= 0 || principal.isZero()) return ZERO;
  return toAsset(principal.mul(new D(String(rate))).mul(ms).div(YEAR_MS), decimals);
}

/**
 * A position's rate: the amount-weighted mean of its fills' rates (`fillValue` = Σ amount × rate),
 * exact in decimal, then the nearest double. It lies between the lowest and the highest fill
 * rate, so it is a valid rate (0 ≤ r < 1) whenever they are. Rounding it to a fixed number of
 * places cannot promise that: rounded to 6 places, a fill at 0.9999996 became a rate of 1.
 */
export function meanRate(fillValue: string, filled: string): number {
  return new D(fillValue).div(filled).toNumber();
}
