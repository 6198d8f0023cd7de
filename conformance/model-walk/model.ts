import { Decimal } from '../../contract/decimal.ts';
import { decimalPlaces, decimalString, type Profile } from '../../contract/index.ts';

// The walk's model of one user's ledger: exact funds per asset (as learned at the start), and
// the positions the walk made. It is sequential and exact, unlike the linearizability model
// (conformance/concurrency/linearize/model.ts), which allows every interleaving and so keeps
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

/** Why `value` is not an exact amount of `asset` (a decimal string within its decimals), or undefined. */
export function amountProblem(profile: Profile, asset: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || !decimalString.safeParse(value).success) return `${JSON.stringify(value)} is not a decimal string`;
  const places = profile.assets.info[asset]?.decimals;
  if (places !== undefined && decimalPlaces(value) > places) return `${value} has ${decimalPlaces(value)} decimal places; ${asset} has ${places}`;
  return undefined;
}

export const open = (p: WalkPosition) => p.status === 'pending' || p.status === 'active';
