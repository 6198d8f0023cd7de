import type { Decimal } from '../../contract/decimal.ts';
import { canHave, credit, D, debit, fits, hullFunds, money, showFunds, UNKNOWN_FUNDS, exactly, type Funds } from './funds.ts';

// The ledger model's state and the moves every operation shares: funds per account and asset
// (intervals, see funds.ts) and the positions the history created. States are never mutated.
// One model, two users: the linearizability checker steps sets of these states through every
// interleaving (concurrency/linearize/ledger/model.ts); the model walk keeps one, whose funds
// stay exact (a degenerate interval) where they were learned (model-walk/model.ts).
//
// The model is nondeterministic where a correct service acts on its own between requests:
// a pending order may be matched (wholly or in part) at any moment, and, when the run cannot
// rule it out (`spontaneousClose`), an open position may expire or mature, releasing funds.
// Those moves are taken lazily, only when an answer needs them (a read showing `active`, a
// cancel refused as invalid state), so the search never enumerates every possible match.

export type Status = 'pending' | 'partial' | 'active' | 'cancelled' | 'closed';

export interface Pos {
  type: 'lend' | 'borrow';
  /** `partial`: part-filled and still pending on reads; a cancel may be refused. */
  status: Status;
  account: string;
  /** What is lent or borrowed. */
  asset: string;
  amount: string;
  autoRollover?: boolean;
  autoRefinance?: boolean;
  /** A borrow: what it holds while open, given back by a cancel, an expiry or a full repay. */
  collateral?: { asset: string; amount: string };
  /** A borrow: principal repaid so far by partial repays. */
  repaid?: string;
}

export interface State {
  /** By `${account} ${asset}`; one left out is unknown (0 to unbounded). */
  funds: Record<string, Funds>;
  pos: Record<string, Pos>;
}

export interface LedgerOptions {
  /** Whether maturity or expiry may fall inside the history (then open positions may close on their own). */
  spontaneousClose: boolean;
  /**
   * Every match and close is seen by a read before anything relies on it: the model walk, one
   * request at a time, reads a position before it applies a refused cancel or PATCH of it, and
   * reads every open position after each clock step. Then no unseen match or close explains an
   * accepted debit, a refusal's figure or a refused cancel or PATCH, and orders fill whole (a
   * refused cancel of an order that still reads pending breaks a rule). Off for the checker.
   */
  seen?: boolean;
  /** Available funds at the start, per account (operations.ts account()) and asset; what is left out starts unknown. */
  start?: Record<string, Record<string, string>>;
}

export type Step = { states: State[]; reason?: string };

export const fundsKey = (account: string, asset: string) => `${account} ${asset}`;

export function initialState(o: LedgerOptions): State {
  const funds: Record<string, Funds> = {};
  for (const [acc, assets] of Object.entries(o.start ?? {})) for (const [asset, amount] of Object.entries(assets)) funds[fundsKey(acc, asset)] = exactly(amount);
  return { funds, pos: {} };
}

const keys = new WeakMap<State, string>();

/** A stable key of a state, for the memo and for de-duplicating a set of states (states are never mutated, so it is kept). */
export function stateKey(s: State): string {
  let k = keys.get(s);
  if (k === undefined) keys.set(s, (k = computeKey(s)));
  return k;
}

// Positions first, then a separator no id contains, so positionsKey() is a slice of the
// kept key rather than a second cache (a WeakMap entry per state costs the search dearly).
function computeKey(s: State): string {
  const p = Object.keys(s.pos).sort().map((id) => {
    const x = s.pos[id]!;
    return `${id}:${x.status}:${x.autoRollover ?? '-'}:${x.autoRefinance ?? '-'}${x.repaid ? `:${x.repaid}` : ''}`;
  });
  const f = Object.keys(s.funds).sort().map((a) => `${a}:${s.funds[a]!.lo}..${s.funds[a]!.hi ?? '∞'}${s.funds[a]!.hiOpen ? ')' : ']'}`);
  return `${p.join(',')}\u0000${f.join(',')}`;
}

/** The positions part of a state's key: states equal in it differ only in funds. */
export function positionsKey(s: State): string {
  const k = stateKey(s);
  return k.slice(0, k.indexOf('\u0000'));
}

/**
 * One state covering both (equal positions, funds the hull of each interval). It allows more
 * than the two did, never less, so a history it refuses is refused by the two as well; it keeps
 * the set of states small where answers set aside double it at every step.
 */
export function hull(a: State, b: State): State {
  const funds: Record<string, Funds> = {};
  for (const k of new Set([...Object.keys(a.funds), ...Object.keys(b.funds)])) funds[k] = hullFunds(a.funds[k] ?? UNKNOWN_FUNDS, b.funds[k] ?? UNKNOWN_FUNDS);
  return { funds, pos: a.pos };
}

export const fundsOf = (s: State, account: string, asset: string): Funds => s.funds[fundsKey(account, asset)] ?? UNKNOWN_FUNDS;
export const withFunds = (s: State, account: string, asset: string, f: Funds): State => ({ ...s, funds: { ...s.funds, [fundsKey(account, asset)]: f } });
export const withPos = (s: State, id: string, p: Pos): State => ({ ...s, pos: { ...s.pos, [id]: p } });

export const isOpen = (p: Pos) => p.status === 'pending' || p.status === 'partial' || p.status === 'active';

/** What an open order holds of its owner's funds: a lend its amount, a borrow its collateral. */
export const held = (p: Pos): { asset: string; amount: string } => (p.type === 'borrow' ? p.collateral! : { asset: p.asset, amount: p.amount });

/** `p` moved to `status`, what it holds credited between `min` and `max` (null: unbounded). */
export function release(s: State, id: string, p: Pos, status: Status, min: Decimal, max: Decimal | null): State {
  const h = held(p);
  return withFunds(withPos(s, id, { ...p, status }), p.account, h.asset, credit(fundsOf(s, p.account, h.asset), min, max));
}

/**
 * A pending order matched, wholly (`active`) or in part (`partial`): a borrow's owner receives
 * what is borrowed (all of it, or an unknown part of it); a lend's funds were taken when placed.
 */
export function matched(s: State, id: string, p: Pos, status: 'active' | 'partial'): State {
  const t = withPos(s, id, { ...p, status });
  if (p.type !== 'borrow' || p.status === 'active') return t;
  const x = D(p.amount);
  const whole = p.status === 'pending' && status === 'active';
  return withFunds(t, p.account, p.asset, credit(fundsOf(s, p.account, p.asset), whole ? x : D(0), x));
}

/**
 * The states an open position may reach on its own by closing (expiry or maturity), with what
 * each releases. An order expired unfilled gives back what it holds. A lend that matures pays
 * principal and `interest` (when a read shows it, and nothing if it rolls over); otherwise, or
 * part-filled, what comes back is not known. A borrow that closes on its own gives nothing back.
 */
export function closings(s: State, id: string, p: Pos, interest?: Decimal): Array<{ state: State; as: 'cancelled' | 'closed' }> {
  const out: Array<{ state: State; as: 'cancelled' | 'closed' }> = [];
  const h = D(held(p).amount);
  if (p.status === 'pending') out.push({ state: release(s, id, p, 'cancelled', h, h), as: 'cancelled' });
  if (p.status === 'active' || p.status === 'partial') {
    if (p.type === 'borrow') out.push({ state: withPos(s, id, { ...p, status: 'closed' }), as: 'closed' });
    else if (p.status === 'active' && interest !== undefined) {
      const paid = p.autoRollover ? D(0) : D(p.amount).plus(interest);
      out.push({ state: release(s, id, p, 'closed', paid, paid), as: 'closed' });
    } else out.push({ state: release(s, id, p, 'closed', D(0), null), as: 'closed' });
  }
  return out;
}

/** Every state `s` may reach with one open position holding the account's asset closing unseen (when the run allows it). */
function anyClosing(o: LedgerOptions, s: State, account: string, asset: string): State[] {
  if (!o.spontaneousClose || o.seen) return [];
  return Object.entries(s.pos).filter(([, p]) => p.account === account && held(p).asset === asset && isOpen(p)).flatMap(([id, p]) => closings(s, id, p).map((c) => c.state));
}

/** An accepted debit of `x`, allowing open positions to have closed first when nothing else explains it. */
export function takeFunds(o: LedgerOptions, s: State, account: string, asset: string, x: Decimal, what: string): Step {
  const f = fundsOf(s, account, asset);
  if (canHave(f, x)) return { states: [withFunds(s, account, asset, debit(f, x))] };
  const via = anyClosing(o, s, account, asset).filter((t) => canHave(fundsOf(t, account, asset), x));
  if (via.length) return { states: via.map((t) => withFunds(t, account, asset, debit(fundsOf(t, account, asset), x))) };
  return { states: [], reason: `${what} was accepted, but at most ${showFunds(f)} ${asset} can be available then` };
}

export function refuseFunds(o: LedgerOptions, s: State, account: string, asset: string, x: Decimal, out: { available?: string; required?: string }, what: string): Step {
  const f = fundsOf(s, account, asset);
  if (out.available !== undefined) {
    const a = D(out.available);
    const need = out.required !== undefined ? D(out.required) : x;
    if (a.gte(need)) return { states: [], reason: `${what} was refused as insufficient_funds, though its details say ${money(a, asset)} available against ${money(need, asset)} required` };
    if (fits(f, a)) return { states: [withFunds(s, account, asset, exactly(a))] };
    const via = anyClosing(o, s, account, asset).filter((t) => fits(fundsOf(t, account, asset), a));
    if (via.length) return { states: via.map((t) => withFunds(t, account, asset, exactly(a))) };
    return { states: [], reason: `${what} was refused with ${money(a, asset)} available, but the model holds ${showFunds(f)} ${asset} available then` };
  }
  // Without details: fewer than x were available.
  if (D(f.lo).gte(x)) return { states: [], reason: `${what} was refused as insufficient_funds, but at least ${money(f.lo, asset)} must be available then` };
  const hi = f.hi === null || D(f.hi).gte(x) ? { hi: x.toFixed(), hiOpen: true } : { hi: f.hi, hiOpen: f.hiOpen };
  return { states: [withFunds(s, account, asset, { lo: f.lo, ...hi })] };
}

/** The model's state in a line: funds per asset (per account when there are several), then each position's status. */
export function showState(s: State): string {
  const ks = Object.keys(s.funds).sort();
  const several = new Set(ks.map((k) => k.slice(0, k.lastIndexOf(' ')))).size > 1;
  const f = ks.map((k) => `${several ? `${k.slice(0, k.lastIndexOf(' '))}: ` : ''}${k.slice(k.lastIndexOf(' ') + 1)} available ${showFunds(s.funds[k])}`);
  const p = Object.entries(s.pos).map(([id, x]) => `${id} ${x.status === 'partial' ? 'pending (part-filled)' : x.status}`);
  return [...f, ...p].join('; ') || 'available funds unknown';
}
