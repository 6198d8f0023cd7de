import { Decimal } from '../../../contract/decimal.ts';
import type { Profile } from '../../../contract/index.ts';
import type { TimedExchange } from '../exchanges.ts';

// The sequential model of one user's ledger that a history is checked against, in one place.
// Balances cannot be read (the spec has no balance endpoint), so each asset's available funds
// are an interval the answers narrow: an accepted debit proves at least its amount was there,
// an insufficient_funds proves less was, and its details.available (when given) pins it.
//
// The model is nondeterministic where a correct service acts on its own between requests:
// a pending order may be matched (wholly or in part) at any moment, and, when the run cannot
// rule it out (`spontaneousClose`), an open position may expire or mature, releasing funds.
// Those moves are taken lazily, only when an answer needs them (a read showing `active`, a
// cancel refused as invalid state), so the search never enumerates every possible match.

export type Status = 'pending' | 'partial' | 'active' | 'cancelled' | 'closed';

export interface Pos {
  /** `partial`: part-filled and still pending on reads; a cancel may be refused. */
  status: Status;
  asset: string;
  amount: string;
  autoRollover?: boolean;
  autoRefinance?: boolean;
}

/** Available funds of one asset: lo ≤ x ≤ hi (x < hi when hiOpen); hi null is unbounded. */
export interface Funds {
  lo: string;
  hi: string | null;
  hiOpen: boolean;
}

export interface State {
  funds: Record<string, Funds>;
  pos: Record<string, Pos>;
}

export interface ModelOptions {
  profile: Profile;
  /** Whether maturity or expiry may fall inside the history (then open positions may close on their own). */
  spontaneousClose: boolean;
  /** Available funds at the start per asset; an asset left out starts unknown (0 to unbounded). */
  start?: Record<string, string>;
}

/** What one operation's answer means to the model. */
export type Outcome =
  | { kind: 'ok' }
  | { kind: 'insufficient'; available?: string; required?: string }
  | { kind: 'invalid-state' }
  | { kind: 'not-found' }
  /** Refused before it touched the ledger (429, a validation 4xx): no effect. */
  | { kind: 'no-effect' }
  /** No answer, a 5xx, or an observation set aside while minimising: it may or may not have taken effect. */
  | { kind: 'unknown' };

export interface Step {
  states: State[];
  /** Why no state allows the answer (when `states` is empty). */
  reason?: string;
}

const D = (s: string | number | Decimal) => new Decimal(s);

export function initialState(o: ModelOptions): State {
  const funds: Record<string, Funds> = {};
  for (const [asset, amount] of Object.entries(o.start ?? {})) funds[asset] = { lo: D(amount).toFixed(), hi: D(amount).toFixed(), hiOpen: false };
  return { funds, pos: {} };
}

const UNKNOWN_FUNDS: Funds = { lo: '0', hi: null, hiOpen: false };

const keys = new WeakMap<State, string>();

/** A stable key of a state, for the memo and for de-duplicating a set of states (states are never mutated, so it is kept). */
export function stateKey(s: State): string {
  let k = keys.get(s);
  if (k === undefined) keys.set(s, (k = computeKey(s)));
  return k;
}

function computeKey(s: State): string {
  const f = Object.keys(s.funds).sort().map((a) => `${a}:${s.funds[a]!.lo}..${s.funds[a]!.hi ?? '∞'}${s.funds[a]!.hiOpen ? ')' : ']'}`);
  const p = Object.keys(s.pos).sort().map((id) => {
    const x = s.pos[id]!;
    return `${id}:${x.status}:${x.autoRollover ?? '-'}:${x.autoRefinance ?? '-'}`;
  });
  return `${f.join(',')}|${p.join(',')}`;
}

/** The positions part of a state's key: states equal in it differ only in funds. */
export const positionsKey = (s: State) => stateKey(s).split('|')[1]!;

/**
 * One state covering both (equal positions, funds the hull of each asset's two intervals). It
 * allows more than the two did, never less, so a history it refuses is refused by the two as
 * well; it keeps the set of states small where answers set aside double it at every step.
 */
export function hull(a: State, b: State): State {
  const funds: Record<string, Funds> = {};
  for (const asset of new Set([...Object.keys(a.funds), ...Object.keys(b.funds)])) {
    const x = fundsOf(a, asset);
    const y = fundsOf(b, asset);
    const lo = Decimal.min(D(x.lo), D(y.lo)).toFixed();
    if (x.hi === null || y.hi === null) funds[asset] = { lo, hi: null, hiOpen: false };
    else {
      const c = D(x.hi).cmp(D(y.hi));
      funds[asset] = c > 0 ? { lo, hi: x.hi, hiOpen: x.hiOpen } : c < 0 ? { lo, hi: y.hi, hiOpen: y.hiOpen } : { lo, hi: x.hi, hiOpen: x.hiOpen && y.hiOpen };
    }
  }
  return { funds, pos: a.pos };
}

export function showFunds(f: Funds | undefined): string {
  const x = f ?? UNKNOWN_FUNDS;
  if (x.hi !== null && x.lo === x.hi && !x.hiOpen) return x.lo;
  return `${x.lo}..${x.hi ?? '∞'}${x.hiOpen ? ' (exclusive)' : ''}`;
}

const fundsOf = (s: State, asset: string): Funds => s.funds[asset] ?? UNKNOWN_FUNDS;
const withFunds = (s: State, asset: string, f: Funds): State => ({ ...s, funds: { ...s.funds, [asset]: f } });
const withPos = (s: State, id: string, p: Pos): State => ({ ...s, pos: { ...s.pos, [id]: p } });

/** Could the available funds be at least `x`? */
function canHave(f: Funds, x: Decimal): boolean {
  if (f.hi === null) return true;
  const hi = D(f.hi);
  return f.hiOpen ? hi.gt(x) : hi.gte(x);
}

function debit(f: Funds, x: Decimal): Funds {
  return { lo: Decimal.max(D(f.lo), x).minus(x).toFixed(), hi: f.hi === null ? null : D(f.hi).minus(x).toFixed(), hiOpen: f.hiOpen };
}

/** Adds between `min` and `max` (null: unbounded) to the funds. */
function credit(f: Funds, min: Decimal, max: Decimal | null): Funds {
  return { lo: D(f.lo).plus(min).toFixed(), hi: f.hi === null || max === null ? null : D(f.hi).plus(max).toFixed(), hiOpen: f.hiOpen };
}

const isOpen = (p: Pos) => p.status === 'pending' || p.status === 'partial' || p.status === 'active';

/** The states an open position may reach on its own by closing (expiry or maturity), with what each releases. */
function closings(s: State, id: string, p: Pos): Array<{ state: State; as: 'cancelled' | 'closed' }> {
  const f = fundsOf(s, p.asset);
  const out: Array<{ state: State; as: 'cancelled' | 'closed' }> = [];
  if (p.status === 'pending') out.push({ state: withFunds(withPos(s, id, { ...p, status: 'cancelled' }), p.asset, credit(f, D(p.amount), D(p.amount))), as: 'cancelled' });
  // A part-filled order's unfilled part comes back and the filled part runs to term (or rolls
  // over); a matured position pays principal and interest: what comes back is not known.
  if (p.status === 'active' || p.status === 'partial') out.push({ state: withFunds(withPos(s, id, { ...p, status: 'closed' }), p.asset, credit(f, D(0), null)), as: 'closed' });
  return out;
}

/** Every state `s` may reach with one open position closing on its own (when the run allows it). */
function anyClosing(o: ModelOptions, s: State, asset: string): State[] {
  if (!o.spontaneousClose) return [];
  return Object.entries(s.pos).filter(([, p]) => p.asset === asset && isOpen(p)).flatMap(([id, p]) => closings(s, id, p).map((c) => c.state));
}

const money = (x: Decimal | string, asset: string) => `${D(x).toFixed()} ${asset}`;

/** An accepted debit of `x`, allowing open positions to have closed first when nothing else explains it. */
function takeFunds(o: ModelOptions, s: State, asset: string, x: Decimal, what: string): Step {
  if (canHave(fundsOf(s, asset), x)) return { states: [withFunds(s, asset, debit(fundsOf(s, asset), x))] };
  const via = anyClosing(o, s, asset).filter((t) => canHave(fundsOf(t, asset), x));
  if (via.length) return { states: via.map((t) => withFunds(t, asset, debit(fundsOf(t, asset), x))) };
  return { states: [], reason: `${what} was accepted, but at most ${showFunds(fundsOf(s, asset))} ${asset} can be available then` };
}

function refuseFunds(o: ModelOptions, s: State, asset: string, x: Decimal, out: { available?: string; required?: string }, what: string): Step {
  const f = fundsOf(s, asset);
  const fits = (g: Funds, a: Decimal) => D(g.lo).lte(a) && (g.hi === null || (g.hiOpen ? D(g.hi).gt(a) : D(g.hi).gte(a)));
  if (out.available !== undefined) {
    const a = D(out.available);
    const need = out.required !== undefined ? D(out.required) : x;
    if (a.gte(need)) return { states: [], reason: `${what} was refused as insufficient_funds, though its details say ${money(a, asset)} available against ${money(need, asset)} required` };
    const exact: Funds = { lo: a.toFixed(), hi: a.toFixed(), hiOpen: false };
    if (fits(f, a)) return { states: [withFunds(s, asset, exact)] };
    const via = anyClosing(o, s, asset).filter((t) => fits(fundsOf(t, asset), a));
    if (via.length) return { states: via.map((t) => withFunds(t, asset, exact)) };
    return { states: [], reason: `${what} was refused with ${money(a, asset)} available, but the model holds ${showFunds(f)} ${asset} available then` };
  }
  // Without details: fewer than x were available.
  if (D(f.lo).gte(x)) return { states: [], reason: `${what} was refused as insufficient_funds, but at least ${money(f.lo, asset)} must be available then` };
  const hi = f.hi === null || D(f.hi).gte(x) ? { hi: x.toFixed(), hiOpen: true } : { hi: f.hi, hiOpen: f.hiOpen };
  return { states: [withFunds(s, asset, { lo: f.lo, ...hi })] };
}

// ---- the operations -----------------------------------------------------------------------

export interface Interpreted {
  /** The model's reading of the operation, e.g. "withdraw 600 USDC". */
  label: string;
  outcome: Outcome;
  /** The answer in a few words: "202 accepted", "400 insufficient_funds (available 400)". */
  answer: string;
  apply(o: ModelOptions, s: State, outcome: Outcome): Step;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The outcome of an answer as the model sees it, under the profile's invalid-state choice. */
export function outcomeOf(profile: Profile, op: TimedExchange): Outcome {
  const r = op.response;
  if (!r || r.status >= 500) return { kind: 'unknown' };
  if (r.status >= 200 && r.status < 300) return { kind: 'ok' };
  const err = obj(obj(r.json).error);
  const code = typeof err.code === 'string' ? err.code : '';
  if (code === 'insufficient_funds') {
    const d = obj(err.details);
    return {
      kind: 'insufficient',
      ...(typeof d.available === 'string' && Decimal.isDecimal(safeDec(d.available)) ? { available: d.available } : {}),
      ...(typeof d.required === 'string' && Decimal.isDecimal(safeDec(d.required)) ? { required: d.required } : {}),
    };
  }
  if (code === 'position_not_found' || (r.status === 404 && code !== profile.errors.invalidState.code)) return { kind: 'not-found' };
  if (code === profile.errors.invalidState.code && r.status === profile.errors.invalidState.status && op.kind !== 'lend' && op.kind !== 'withdraw') return { kind: 'invalid-state' };
  return { kind: 'no-effect' };
}

function safeDec(s: string): Decimal | undefined {
  try {
    return new Decimal(s);
  } catch {
    return undefined;
  }
}

function describeAnswer(op: TimedExchange, out: Outcome): string {
  if (!op.response) return 'no answer';
  const st = op.response.status;
  switch (out.kind) {
    case 'ok':
      return `${st} accepted`;
    case 'insufficient':
      return `${st} insufficient_funds${out.available !== undefined ? ` (available ${out.available})` : ''}`;
    case 'invalid-state':
      return `${st} invalid state`;
    case 'not-found':
      return `${st} not found`;
    case 'unknown':
      return `${st} (outcome unknown)`;
    default: {
      const code = obj(obj(op.response.json).error).code;
      return `${st} ${typeof code === 'string' ? code : ''} (no effect)`.replace('  ', ' ');
    }
  }
}

/** The position id of a path /positions/{id}[/…]. */
export function positionIdOf(path: string): string {
  const m = /\/positions\/([^/?]+)/.exec(path);
  return m ? decodeURIComponent(m[1]!) : '';
}

const MATCHED_STATUSES = new Set(['active']);

/** Reads an operation of the history in the model's words; undefined for a kind the model does not know. */
export function interpret(profile: Profile, op: TimedExchange): Interpreted | undefined {
  const out = outcomeOf(profile, op);
  const body = obj(op.request.body);
  const answer = describeAnswer(op, out);
  const json = obj(op.response?.json);
  switch (op.kind) {
    case 'withdraw':
    case 'lend': {
      const asset = String(body.asset ?? '');
      const amount = safeDec(String(body.amount ?? ''));
      if (!asset || !amount) return undefined;
      const what = `${op.kind} ${money(amount, asset)}`;
      const id = op.kind === 'lend' && typeof json.positionId === 'string' ? json.positionId : `?${op.id}`;
      const autoRollover = typeof json.autoRollover === 'boolean' ? json.autoRollover : undefined;
      return {
        label: what,
        outcome: out,
        answer: op.kind === 'lend' && out.kind === 'ok' ? `${answer} ${id}` : answer,
        apply(o, s, oc) {
          const create = (t: State): State => (op.kind === 'lend' ? withPos(t, id, { status: 'pending', asset, amount: amount.toFixed(), ...(autoRollover !== undefined ? { autoRollover } : {}) }) : t);
          if (oc.kind === 'ok') {
            const t = takeFunds(o, s, asset, amount, what);
            return { ...t, states: t.states.map(create) };
          }
          if (oc.kind === 'insufficient') return refuseFunds(o, s, asset, amount, oc, what);
          if (oc.kind === 'unknown') {
            const t = takeFunds(o, s, asset, amount, what);
            return { states: [s, ...t.states.map(create)] };
          }
          return { states: [s] };
        },
      };
    }
    case 'cancel': {
      const id = positionIdOf(op.request.path);
      const what = `cancel ${id}`;
      return {
        label: what,
        outcome: out,
        answer,
        apply(o, s, oc) {
          const p = s.pos[id];
          const succeed = (): Step => {
            if (!p) return { states: [], reason: `${what} was accepted, but no such position was created before it` };
            const f = fundsOf(s, p.asset);
            if (p.status === 'pending') return { states: [withFunds(withPos(s, id, { ...p, status: 'cancelled' }), p.asset, credit(f, D(p.amount), D(p.amount)))] };
            // Some services cancel a part-filled order's unfilled rest.
            if (p.status === 'partial') return { states: [withFunds(withPos(s, id, { ...p, status: 'cancelled' }), p.asset, credit(f, D(0), D(p.amount)))] };
            return { states: [], reason: `${what} was accepted, but the position was already ${p.status === 'closed' ? 'closed' : p.status} (released once already)` };
          };
          if (oc.kind === 'ok') return succeed();
          if (oc.kind === 'unknown') {
            const t = succeed();
            return { states: [s, ...t.states] };
          }
          if (oc.kind === 'invalid-state') {
            if (!p) return { states: [], reason: `${what} was refused as invalid state, but no such position was created before it` };
            if (p.status !== 'pending') return { states: [s] };
            // Matched (wholly or in part) just before, or expired. `partial` covers a whole match
            // too: it allows every answer `active` does and reads of pending besides, so one
            // state stands for both (the search branches half as much, and fails nothing more).
            const next = [withPos(s, id, { ...p, status: 'partial' })];
            if (o.spontaneousClose) next.push(...closings(s, id, p).map((c) => c.state));
            return { states: next };
          }
          if (oc.kind === 'not-found') return p ? { states: [], reason: `${what} answered not found, but the position was created before it` } : { states: [s] };
          return { states: [s] };
        },
      };
    }
    case 'patch': {
      const id = positionIdOf(op.request.path);
      const flags = { ...(typeof body.autoRollover === 'boolean' ? { autoRollover: body.autoRollover } : {}), ...(typeof body.autoRefinance === 'boolean' ? { autoRefinance: body.autoRefinance } : {}) };
      const what = `patch ${id} ${JSON.stringify(flags)}`;
      return {
        label: what,
        outcome: out,
        answer,
        apply(o, s, oc) {
          const p = s.pos[id];
          const set = (): Step => {
            if (!p) return { states: [], reason: `${what} was accepted, but no such position was created before it` };
            if (!isOpen(p)) return { states: [], reason: `${what} was accepted, but the position was already ${p.status}` };
            return { states: [withPos(s, id, { ...p, ...flags })] };
          };
          if (oc.kind === 'ok') return set();
          if (oc.kind === 'unknown') return { states: [s, ...set().states] };
          if (oc.kind === 'invalid-state') {
            if (!p) return { states: [], reason: `${what} was refused as invalid state, but no such position was created before it` };
            if (!isOpen(p)) return { states: [s] };
            const via = o.spontaneousClose ? closings(s, id, p).map((c) => c.state) : [];
            return via.length ? { states: via } : { states: [], reason: `${what} was refused as invalid state, but the position is ${p.status === 'partial' ? 'pending' : p.status} then, and a PATCH applies to open positions` };
          }
          if (oc.kind === 'not-found') return p ? { states: [], reason: `${what} answered not found, but the position was created before it` } : { states: [s] };
          return { states: [s] };
        },
      };
    }
    case 'read': {
      const id = positionIdOf(op.request.path);
      const status = typeof json.status === 'string' ? json.status : undefined;
      const autoRollover = typeof json.autoRollover === 'boolean' ? json.autoRollover : undefined;
      const what = `read ${id}`;
      return {
        label: what,
        outcome: out,
        answer: out.kind === 'ok' ? `${op.response!.status} ${status ?? '(no status)'}${autoRollover !== undefined ? ` autoRollover ${autoRollover}` : ''}` : answer,
        apply(o, s, oc) {
          const p = s.pos[id];
          if (oc.kind === 'not-found') return p ? { states: [], reason: `${what} answered not found, but the position was created before it` } : { states: [s] };
          if (oc.kind !== 'ok' || status === undefined) return { states: [s] };
          if (!p) return { states: [], reason: `${what} showed the position, but no create of it was acknowledged or in flight before` };
          const flagOk = (q: Pos) => autoRollover === undefined || q.autoRollover === undefined || q.autoRollover === autoRollover;
          const candidates: State[] = [];
          if (status === 'pending') {
            if (p.status === 'pending' || p.status === 'partial') candidates.push(s);
          } else if (MATCHED_STATUSES.has(status)) {
            if (p.status === 'pending' || p.status === 'partial') candidates.push(withPos(s, id, { ...p, status: 'active' }));
            if (p.status === 'active') candidates.push(s);
          } else if (status === 'cancelled') {
            if (p.status === 'cancelled') candidates.push(s);
            else if (o.spontaneousClose) candidates.push(...closings(s, id, p).filter((c) => c.as === 'cancelled').map((c) => c.state));
          } else {
            // matured, the profile's repaid / liquidated status, or one outside the list: closed.
            if (p.status === 'closed') candidates.push(s);
            else if (o.spontaneousClose) candidates.push(...closings(s, id, p).filter((c) => c.as === 'closed').map((c) => c.state));
          }
          const ok = candidates.filter((t) => flagOk(t.pos[id]!));
          if (ok.length) return { states: ok };
          if (candidates.length) return { states: [], reason: `${what} showed autoRollover ${autoRollover}, but the last accepted value is ${p.autoRollover}` };
          const now = p.status === 'partial' ? 'pending (part-filled)' : p.status;
          return { states: [], reason: `${what} showed ${status}, but the position is ${now} then${p.status === 'cancelled' || p.status === 'closed' ? ' (a closed position does not reopen)' : ''}` };
        },
      };
    }
    default:
      return undefined;
  }
}
