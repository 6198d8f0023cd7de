import type { Decimal } from '../../contract/decimal.ts';
import { decimalPlaces, decimalString, type Profile } from '../../contract/index.ts';
import { D, type Funds } from '../ledger-model/funds.ts';
import type { LedgerInput, LedgerOutput } from '../ledger-model/operations.ts';
import { fundsOf, hull, initialState, isOpen, type LedgerOptions, type Pos, type State } from '../ledger-model/state.ts';
import { ledgerStep } from '../ledger-model/steps.ts';

// The walk's model of one user's ledger: the one ledger model (conformance/ledger-model/, which
// the linearizability checker steps over sets of states through every interleaving) used
// sequentially, one state, one request at a time. Funds learned at the start stay exact, a
// degenerate interval [x, x]: every answer moves them by a known amount, except interest, which
// the spec leaves to the service and the walk reads back (accruedInterest). Funds it cannot
// learn start unknown, and their answers are predicted only as far as the model's interval goes.

export interface WalkModel {
  /** The user's ledger, a state of the ledger model. */
  state: State;
  /** The account the state files the user's funds under. */
  account: string;
  /** The assets whose funds are compared after each step, where the model holds them exactly. */
  assets: string[];
  /** The positions' ids, in the order the walk made them (its commands pick by index). */
  ids: string[];
  /** The target has the sandbox clock. */
  clock: boolean;
}

/**
 * How the walk steps the ledger model: a read may show a position closed on its own (an order
 * expired, or one matured past a clock step), and every match and close is seen by a read
 * before anything relies on it (state.ts `seen`): the walk reads a position before it applies a
 * refused cancel or PATCH of it, and every open position after each clock step.
 */
export const WALK_LEDGER: LedgerOptions = { spontaneousClose: true, seen: true };

/** The model at the start: the funds learned (undefined: not learnable, then unknown), no positions. */
export function walkModel(account: string, start: Record<string, Decimal | undefined>, clock: boolean): WalkModel {
  const known: Record<string, string> = {};
  for (const [a, x] of Object.entries(start)) if (x !== undefined) known[a] = x.toFixed();
  return { state: initialState({ ...WALK_LEDGER, start: { [account]: known } }), account, assets: Object.keys(start), ids: [], clock };
}

/**
 * One operation and its answer through the ledger model: undefined when the model allows it
 * (the model moves on), else the model's reason. With `seen`, a step leaves one state; were it
 * ever to leave several, their hull (state.ts) keeps the walk going without failing on it.
 */
export function apply(m: WalkModel, input: LedgerInput, output: LedgerOutput): string | undefined {
  const step = ledgerStep(WALK_LEDGER, m.state, input, output);
  if (!step.states.length) return step.reason ?? 'the ledger model allows no state after it';
  m.state = step.states.reduce((a, b) => hull(a, b));
  return undefined;
}

/** x when the funds are exactly x, else undefined (not learned, or no longer exact). */
export function exact(f: Funds): Decimal | undefined {
  return f.hi !== null && !f.hiOpen && D(f.lo).eq(f.hi) ? D(f.lo) : undefined;
}

/** The model's available funds of `asset`, when it holds them exactly. */
export const fundsIn = (m: WalkModel, asset: string): Decimal | undefined => exact(fundsOf(m.state, m.account, asset));

/** The positions the walk made, in order, each with its id. */
export const positions = (m: Readonly<WalkModel>): Array<Pos & { id: string }> => m.ids.map((id) => ({ ...m.state.pos[id]!, id }));

/** A status as the model keeps it: matured, the profile's repaid and liquidated statuses, and any other, are closed. */
export const statusOf = (s: string): Pos['status'] => (s === 'pending' || s === 'active' || s === 'cancelled' ? s : 'closed');

export const open = isOpen;

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
  const places = profile.assets.info?.[asset]?.decimals;
  return places !== undefined && decimalPlaces(value) > places ? `${value} has ${decimalPlaces(value)} decimal places; the profile gives ${asset} ${places}` : undefined;
}
