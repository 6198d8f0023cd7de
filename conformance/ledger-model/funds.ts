import { Decimal } from '../../contract/decimal.ts';

// Available funds the model cannot read (the spec has no balance endpoint), as an interval the
// answers narrow: an accepted debit proves at least its amount was there, an insufficient_funds
// proves less was, and its details.available (when given) pins it. Exact decimals throughout.
// Funds known to the last unit are the degenerate interval [x, x]: the model walk's, learned at
// its start, stay so, since every answer it steps moves them by a known amount.

/** Available funds of one asset: lo ≤ x ≤ hi (x < hi when hiOpen); hi null is unbounded. */
export interface Funds {
  lo: string;
  hi: string | null;
  hiOpen: boolean;
}

export const D = (s: string | number | Decimal) => new Decimal(s);

export const UNKNOWN_FUNDS: Funds = { lo: '0', hi: null, hiOpen: false };

export const exactly = (x: string | Decimal): Funds => ({ lo: D(x).toFixed(), hi: D(x).toFixed(), hiOpen: false });

/** Could the available funds be at least `x`? */
export function canHave(f: Funds, x: Decimal): boolean {
  if (f.hi === null) return true;
  const hi = D(f.hi);
  return f.hiOpen ? hi.gt(x) : hi.gte(x);
}

/** Could the available funds be exactly `a`? */
export const fits = (f: Funds, a: Decimal) => D(f.lo).lte(a) && (f.hi === null || (f.hiOpen ? D(f.hi).gt(a) : D(f.hi).gte(a)));

export function debit(f: Funds, x: Decimal): Funds {
  return { lo: Decimal.max(D(f.lo), x).minus(x).toFixed(), hi: f.hi === null ? null : D(f.hi).minus(x).toFixed(), hiOpen: f.hiOpen };
}

/** Adds between `min` and `max` (null: unbounded) to the funds. */
export function credit(f: Funds, min: Decimal, max: Decimal | null): Funds {
  return { lo: D(f.lo).plus(min).toFixed(), hi: f.hi === null || max === null ? null : D(f.hi).plus(max).toFixed(), hiOpen: f.hiOpen };
}

/** The smallest interval covering both. */
export function hullFunds(x: Funds, y: Funds): Funds {
  const lo = Decimal.min(D(x.lo), D(y.lo)).toFixed();
  if (x.hi === null || y.hi === null) return { lo, hi: null, hiOpen: false };
  const c = D(x.hi).cmp(D(y.hi));
  return c > 0 ? { lo, hi: x.hi, hiOpen: x.hiOpen } : c < 0 ? { lo, hi: y.hi, hiOpen: y.hiOpen } : { lo, hi: x.hi, hiOpen: x.hiOpen && y.hiOpen };
}

export function showFunds(f: Funds | undefined): string {
  const x = f ?? UNKNOWN_FUNDS;
  if (x.hi !== null && x.lo === x.hi && !x.hiOpen) return x.lo;
  return `${x.lo}..${x.hi ?? '∞'}${x.hiOpen ? ' (exclusive)' : ''}`;
}

export const money = (x: Decimal | string, asset: string) => `${D(x).toFixed()} ${asset}`;
