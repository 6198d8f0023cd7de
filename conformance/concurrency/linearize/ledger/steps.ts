import type { Decimal } from '../../../../contract/decimal.ts';
import { D } from './interval.ts';
import type { Flags, LedgerInput, LedgerOutput, Outcome } from './operations.ts';
import { closings, isOpen, refuseFunds, release, takeFunds, withPos, type LedgerOptions, type Pos, type State, type Step } from './state.ts';

// What each operation does to one state of the ledger, given what its answer means: the states
// it may lead to, or none and why. One function per kind of operation.

type Of<K extends LedgerInput['kind']> = Extract<LedgerInput, { kind: K }>;

/** The operation as the model names it, e.g. "withdraw 600 USDC"; the reasons quote it. */
export function what(i: LedgerInput): string {
  // The adapter wrote the amount as a plain decimal already (the search calls this at every step).
  if (i.kind === 'withdraw' || i.kind === 'lend') return `${i.kind} ${i.amount} ${i.asset}`;
  if (i.kind === 'patch') return `patch ${i.id} ${JSON.stringify(i.flags)}`;
  return `${i.kind} ${i.id}`;
}

const amounts = new WeakMap<LedgerInput, Decimal>();

/** The amount of a withdrawal or a lend, parsed once per operation (the search steps it many times). */
function amountOf(i: Of<'withdraw' | 'lend'>): Decimal {
  let a = amounts.get(i);
  if (!a) amounts.set(i, (a = D(i.amount)));
  return a;
}

function created(t: State, i: Of<'withdraw' | 'lend'>, out: LedgerOutput): State {
  if (i.kind !== 'lend') return t;
  return withPos(t, out.positionId!, { status: 'pending', account: i.account, asset: i.asset, amount: i.amount, ...(out.autoRollover !== undefined ? { autoRollover: out.autoRollover } : {}) });
}

/** A withdrawal or a lend: a debit of the account, and a lend's order created pending. */
export function debitStep(o: LedgerOptions, s: State, i: Of<'withdraw' | 'lend'>, out: LedgerOutput, oc: Outcome): Step {
  const amount = amountOf(i);
  if (oc.kind === 'ok') {
    const t = takeFunds(o, s, i.account, i.asset, amount, what(i));
    return t.states.length ? { states: t.states.map((x) => created(x, i, out)) } : t;
  }
  if (oc.kind === 'insufficient') return refuseFunds(o, s, i.account, i.asset, amount, oc, what(i));
  if (oc.kind === 'unknown') return { states: [s, ...takeFunds(o, s, i.account, i.asset, amount, what(i)).states.map((x) => created(x, i, out))] };
  return { states: [s] };
}

const notCreated = (w: string, answered: string): Step => ({ states: [], reason: `${w} ${answered}, but no such position was created before it` });
const wasCreated = (w: string): Step => ({ states: [], reason: `${w} answered not found, but the position was created before it` });

export function cancelStep(o: LedgerOptions, s: State, i: Of<'cancel'>, oc: Outcome): Step {
  const w = what(i);
  const p = s.pos[i.id];
  const succeed = (): Step => {
    if (!p) return notCreated(w, 'was accepted');
    if (p.status === 'pending') return { states: [release(s, i.id, p, 'cancelled', D(p.amount), D(p.amount))] };
    // Some services cancel a part-filled order's unfilled rest.
    if (p.status === 'partial') return { states: [release(s, i.id, p, 'cancelled', D(0), D(p.amount))] };
    return { states: [], reason: `${w} was accepted, but the position was already ${p.status === 'closed' ? 'closed' : p.status} (released once already)` };
  };
  if (oc.kind === 'ok') return succeed();
  if (oc.kind === 'unknown') return { states: [s, ...succeed().states] };
  if (oc.kind === 'invalid-state') {
    if (!p) return notCreated(w, 'was refused as invalid state');
    if (p.status !== 'pending') return { states: [s] };
    // Matched (wholly or in part) just before, or expired. `partial` covers a whole match
    // too: it allows every answer `active` does and reads of pending besides, so one
    // state stands for both (the search branches half as much, and fails nothing more).
    const next = [withPos(s, i.id, { ...p, status: 'partial' })];
    if (o.spontaneousClose) next.push(...closings(s, i.id, p).map((c) => c.state));
    return { states: next };
  }
  if (oc.kind === 'not-found') return p ? wasCreated(w) : { states: [s] };
  return { states: [s] };
}

export function patchStep(o: LedgerOptions, s: State, i: Of<'patch'>, oc: Outcome): Step {
  const w = what(i);
  const p = s.pos[i.id];
  const flags: Flags = i.flags;
  const set = (): Step => {
    if (!p) return notCreated(w, 'was accepted');
    if (!isOpen(p)) return { states: [], reason: `${w} was accepted, but the position was already ${p.status}` };
    return { states: [withPos(s, i.id, { ...p, ...flags })] };
  };
  if (oc.kind === 'ok') return set();
  if (oc.kind === 'unknown') return { states: [s, ...set().states] };
  if (oc.kind === 'invalid-state') {
    if (!p) return notCreated(w, 'was refused as invalid state');
    if (!isOpen(p)) return { states: [s] };
    const via = o.spontaneousClose ? closings(s, i.id, p).map((c) => c.state) : [];
    return via.length ? { states: via } : { states: [], reason: `${w} was refused as invalid state, but the position is ${p.status === 'partial' ? 'pending' : p.status} then, and a PATCH applies to open positions` };
  }
  if (oc.kind === 'not-found') return p ? wasCreated(w) : { states: [s] };
  return { states: [s] };
}

const MATCHED_STATUSES = new Set(['active']);

export function readStep(o: LedgerOptions, s: State, i: Of<'read'>, out: LedgerOutput, oc: Outcome): Step {
  const w = what(i);
  const p = s.pos[i.id];
  const { status, autoRollover } = out;
  if (oc.kind === 'not-found') return p ? wasCreated(w) : { states: [s] };
  if (oc.kind !== 'ok' || status === undefined) return { states: [s] };
  if (!p) return { states: [], reason: `${w} showed the position, but no create of it was acknowledged or in flight before` };
  const flagOk = (q: Pos) => autoRollover === undefined || q.autoRollover === undefined || q.autoRollover === autoRollover;
  const candidates: State[] = [];
  if (status === 'pending') {
    if (p.status === 'pending' || p.status === 'partial') candidates.push(s);
  } else if (MATCHED_STATUSES.has(status)) {
    if (p.status === 'pending' || p.status === 'partial') candidates.push(withPos(s, i.id, { ...p, status: 'active' }));
    if (p.status === 'active') candidates.push(s);
  } else if (status === 'cancelled') {
    if (p.status === 'cancelled') candidates.push(s);
    else if (o.spontaneousClose) candidates.push(...closings(s, i.id, p).filter((c) => c.as === 'cancelled').map((c) => c.state));
  } else {
    // matured, the profile's repaid / liquidated status, or one outside the list: closed.
    if (p.status === 'closed') candidates.push(s);
    else if (o.spontaneousClose) candidates.push(...closings(s, i.id, p).filter((c) => c.as === 'closed').map((c) => c.state));
  }
  const ok = candidates.filter((t) => flagOk(t.pos[i.id]!));
  if (ok.length) return { states: ok };
  if (candidates.length) return { states: [], reason: `${w} showed autoRollover ${autoRollover}, but the last accepted value is ${p.autoRollover}` };
  const now = p.status === 'partial' ? 'pending (part-filled)' : p.status;
  return { states: [], reason: `${w} showed ${status}, but the position is ${now} then${p.status === 'cancelled' || p.status === 'closed' ? ' (a closed position does not reopen)' : ''}` };
}
