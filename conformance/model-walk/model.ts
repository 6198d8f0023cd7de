import { Decimal } from '../../contract/decimal.ts';
import { decimalPlaces, decimalString, type Profile } from '../../contract/index.ts';

// The walk's model of one user's ledger: exact funds per asset (as learned at the start), and
// the positions the walk made. It is sequential and exact, unlike the linearizability model
// (conformance/concurrency/linearize/ledger/), which allows every interleaving and so keeps
// funds as intervals: one request at a time, every amount is known to the last unit, except
// interest, which the spec leaves to the service and the walk reads back (accruedInterest) to
// check that what moved adds up.

export type WalkStatus = 'pending' | 'active' | 'cancelled' | 'closed';

export interface WalkPosition {
  id: string;
  type: 'lend' | 'borrow';
  asset: string;
  amount: Decimal;
  status: WalkStatus;
  autoRollover?: boolean;
  collateral?: { asset: string; amount: Decimal };
  /** Repaid so far by partial repays (a borrow). */
  repaid: Decimal;
}

export interface WalkModel {
  /** Available funds per asset; undefined where they cannot be learned (then answers are not predicted). */
  funds: Record<string, Decimal | undefined>;
  positions: WalkPosition[];
  /** The target has the sandbox clock. */
  clock: boolean;
}

/** A status as the model keeps it: matured, the profile's repaid and liquidated statuses, and any other, are closed. */
export const statusOf = (s: string): WalkStatus => (s === 'pending' || s === 'active' || s === 'cancelled' ? s : 'closed');

export function credit(m: WalkModel, asset: string, x: Decimal): void {
  const f = m.funds[asset];
  if (f !== undefined) m.funds[asset] = f.plus(x);
}

export function debit(m: WalkModel, asset: string, x: Decimal): void {
  credit(m, asset, x.neg());
}

/** What the model predicts for a debit of `x`: accepted, refused, or unknown (funds not learnable). */
export function predict(m: WalkModel, asset: string, x: Decimal): 'accept' | 'refuse' | 'either' {
  const f = m.funds[asset];
  if (f === undefined) return 'either';
  return f.gte(x) ? 'accept' : 'refuse';
}

/** Why `value` is not a decimal string, or undefined. */
export function amountProblem(value: unknown): string | undefined {
  return typeof value !== 'string' || !decimalString.safeParse(value).success ? `${JSON.stringify(value)} is not a decimal string` : undefined;
}

/**
 * Why decimal string `value` has more places than the profile gives `asset`, or undefined. The
 * spec gives no decimals, so this is the profile's figure, not a rule: the walk reports it as
 * the profile's gap (assets.info), never as a broken rule.
 */
export function overPrecise(profile: Profile, asset: string, value: string): string | undefined {
  const places = profile.assets.info[asset]?.decimals;
  return places !== undefined && decimalPlaces(value) > places ? `${value} has ${decimalPlaces(value)} decimal places; the profile gives ${asset} ${places}` : undefined;
}

export const open = (p: WalkPosition) => p.status === 'pending' || p.status === 'active';
