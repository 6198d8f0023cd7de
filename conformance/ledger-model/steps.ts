import type { Decimal } from '../../contract/decimal.ts';
import { D } from './funds.ts';
import type { Flags, LedgerInput, LedgerOutput, Outcome } from './operations.ts';
import { closings, fundsOf, held, isOpen, matched, refuseFunds, release, takeFunds, withFunds, withPos, type LedgerOptions, type Pos, type State, type Step } from './state.ts';

// What each operation does to one state of the ledger, given what its answer means: the states
// it may lead to, or none and why. One function per kind of operation, and ledgerStep() to pick
// it. These are the ledger's rules, written once: the linearizability checker steps every state
// of a set through them, the model walk its one state (model-walk/model.ts).

type Of<K extends LedgerInput['kind']> = Extract<LedgerInput, { kind: K }>;

/** The operation as the model names it, e.g. "withdraw 600 USDC"; the reasons quote it. */
export function what(i: LedgerInput): string {
  // The adapter wrote the amount as a plain decimal already (the search calls this at every step).
  if (i.kind === 'withdraw' || i.kind === 'lend') return `${i.kind} ${i.amount} ${i.asset}`;
  if (i.kind === 'borrow') return `borrow ${i.amount} ${i.asset} against ${i.collateral.amount} ${i.collateral.asset}`;
  if (i.kind === 'patch') return `patch ${i.id} ${JSON.stringify(i.flags)}`;
  if (i.kind === 'repay') return i.amount === undefined ? `repay ${i.id} in full` : `repay ${i.amount} of ${i.id}`;
  return `${i.kind} ${i.id}`;
}

const amounts = new WeakMap<LedgerInput, Decimal>();

type Debit = Of<'withdraw' | 'lend' | 'borrow'>;

/** What a withdrawal, a lend or a borrow takes: its amount, a borrow its collateral. */
const takes = (i: Debit) => (i.kind === 'borrow' ? i.collateral : i);

/** The amount taken, parsed once per operation (the search steps it many times). */
function amountOf(i: Debit): Decimal {
  let a = amounts.get(i);
  if (!a) amounts.set(i, (a = D(takes(i).amount)));
  return a;
}

function created(t: State, i: Debit, out: LedgerOutput): State {
  if (i.kind === 'withdraw') return t;
  const base = { type: i.kind, status: 'pending', account: i.account, asset: i.asset, amount: i.amount } as const;
  if (i.kind === 'borrow') return withPos(t, out.positionId!, { ...base, collateral: i.collateral });
  return withPos(t, out.positionId!, { ...base, ...(out.autoRollover !== undefined ? { autoRollover: out.autoRollover } : {}) });
}

/** A withdrawal, a lend or a borrow: a debit of the account, and an order's position created pending. */
export function debitStep(o: LedgerOptions, s: State, i: Debit, out: LedgerOutput, oc: Outcome): Step {
  const amount = amountOf(i);
  const asset = takes(i).asset;
  if (oc.kind === 'ok') {
    const t = takeFunds(o, s, i.account, asset, amount, what(i));
    return t.states.length ? { states: t.states.map((x) => created(x, i, out)) } : t;
  }
  if (oc.kind === 'insufficient') return refuseFunds(o, s, i.account, asset, amount, oc, what(i));
  if (oc.kind === 'unknown') return { states: [s, ...takeFunds(o, s, i.account, asset, amount, what(i)).states.map((x) => created(x, i, out))] };
  return { states: [s] };
}

const notCreated = (w: string, answered: string): Step => ({ states: [], reason: `${w} ${answered}, but no such position was created before it` });
const wasCreated = (w: string): Step => ({ states: [], reason: `${w} answered not found, but the position was created before it` });

export function cancelStep(o: LedgerOptions, s: State, i: Of<'cancel'>, oc: Outcome): Step {
  const w = what(i);
  const p = s.pos[i.id];
  const succeed = (): Step => {
    if (!p) return notCreated(w, 'was accepted');
    if (p.status === 'pending') return { states: [release(s, i.id, p, 'cancelled', D(held(p).amount), D(held(p).amount))] };
    // Some services cancel a part-filled order's unfilled rest.
    if (p.status === 'partial') return { states: [release(s, i.id, p, 'cancelled', D(0), D(held(p).amount))] };
    return { states: [], reason: `${w} was accepted, but the position was already ${p.status === 'closed' ? 'closed' : p.status} (released once already)` };
  };
  if (oc.kind === 'ok') return succeed();
  if (oc.kind === 'unknown') return { states: [s, ...succeed().states] };
  if (oc.kind === 'invalid-state') {
    if (!p) return notCreated(w, 'was refused as invalid state');
    if (p.status !== 'pending') return { states: [s] };
    if (o.seen) return { states: [], reason: `${w} was refused as invalid state, but the position still reads pending then` };
    // Matched (wholly or in part) just before, or expired. `partial` covers a whole match
    // too: it allows every answer `active` does and reads of pending besides, so one
    // state stands for both (the search branches half as much, and fails nothing more).
    const next = [matched(s, i.id, p, 'partial')];
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
    const via = o.spontaneousClose && !o.seen ? closings(s, i.id, p).map((c) => c.state) : [];
    return via.length ? { states: via } : { states: [], reason: `${w} was refused as invalid state, but the position is ${p.status === 'partial' ? 'pending' : p.status} then, and a PATCH applies to open positions` };
  }
  if (oc.kind === 'not-found') return p ? wasCreated(w) : { states: [s] };
  return { states: [s] };
}

const MATCHED_STATUSES = new Set(['active']);

export function readStep(o: LedgerOptions, s: State, i: Of<'read'>, out: LedgerOutput, oc: Outcome): Step {
  const w = what(i);
  const p = s.pos[i.id];
  const { status, autoRollover, amount } = out;
  if (oc.kind === 'not-found') return p ? wasCreated(w) : { states: [s] };
  if (oc.kind !== 'ok' || status === undefined) return { states: [s] };
  if (!p) return { states: [], reason: `${w} showed the position, but no create of it was acknowledged or in flight before` };
  if (amount !== undefined && (status === 'pending' || MATCHED_STATUSES.has(status)) && !D(amount).eq(p.amount)) {
    return { states: [], reason: `${w} showed amount ${amount}, but the position was ordered for ${p.amount}` };
  }
  const interest = out.accruedInterest === undefined ? undefined : D(out.accruedInterest);
  const flagOk = (q: Pos) => autoRollover === undefined || q.autoRollover === undefined || q.autoRollover === autoRollover;
  const candidates: State[] = [];
  if (status === 'pending') {
    if (p.status === 'pending' || p.status === 'partial') candidates.push(s);
  } else if (MATCHED_STATUSES.has(status)) {
    if (p.status === 'pending' || p.status === 'partial') candidates.push(matched(s, i.id, p, 'active'));
    if (p.status === 'active') candidates.push(s);
  } else if (status === 'cancelled') {
    if (p.status === 'cancelled') candidates.push(s);
    else if (o.spontaneousClose) candidates.push(...closings(s, i.id, p).filter((c) => c.as === 'cancelled').map((c) => c.state));
  } else {
    // matured, the profile's repaid / liquidated status, or one outside the list: closed.
    if (p.status === 'closed') candidates.push(s);
    else if (o.spontaneousClose) {
      // Matched and run to term between two reads: a pending order matched, then closed.
      const t = p.status === 'pending' ? matched(s, i.id, p, 'active') : s;
      candidates.push(...closings(t, i.id, t.pos[i.id]!, interest).filter((c) => c.as === 'closed').map((c) => c.state));
    }
  }
  const ok = candidates.filter((t) => flagOk(t.pos[i.id]!));
  if (ok.length) return { states: ok };
  if (candidates.length) return { states: [], reason: `${w} showed autoRollover ${autoRollover}, but the last accepted value is ${p.autoRollover}` };
  const now = p.status === 'partial' ? 'pending (part-filled)' : p.status;
  return { states: [], reason: `${w} showed ${status}, but the position is ${now} then${p.status === 'cancelled' || p.status === 'closed' ? ' (a closed position does not reopen)' : ''}` };
}

/**
 * A repay of an active borrow: in part, its amount taken from the owner's funds; in full, the
 * principal left and the interest accrued (`accruedInterest`, as read after it; absent, at least
 * the principal left), and the collateral given back.
 */
export function repayStep(o: LedgerOptions, s: State, i: Of<'repay'>, out: LedgerOutput, oc: Outcome): Step {
  const w = what(i);
  const p = s.pos[i.id];
  const pay = (): Step => {
    if (!p) return notCreated(w, 'was accepted');
    if (p.type !== 'borrow' || p.status !== 'active') return { states: [], reason: `${w} was accepted, but the position is ${p.type === 'borrow' ? p.status : 'a lend'} then, and a repay applies to active borrows` };
    const repaid = D(p.repaid ?? 0);
    if (i.amount !== undefined) {
      const t = takeFunds({ ...o, spontaneousClose: false }, s, p.account, p.asset, D(i.amount), w);
      return { ...t, states: t.states.map((x) => withPos(x, i.id, { ...p, repaid: repaid.plus(i.amount!).toFixed() })) };
    }
    const left = D(p.amount).minus(repaid);
    const t = takeFunds({ ...o, spontaneousClose: false }, s, p.account, p.asset, left.plus(out.accruedInterest ?? 0), w);
    return {
      ...t,
      states: t.states.map((x) => {
        // Interest not shown: at least the principal left was taken, how much more is not known.
        const f = fundsOf(x, p.account, p.asset);
        const y = out.accruedInterest === undefined ? withFunds(x, p.account, p.asset, { ...f, lo: '0' }) : x;
        return release(y, i.id, p, 'closed', D(held(p).amount), D(held(p).amount));
      }),
    };
  };
  if (oc.kind === 'ok') return pay();
  if (oc.kind === 'unknown') return { states: [s, ...pay().states] };
  if (oc.kind === 'insufficient' && i.amount !== undefined && p) return refuseFunds(o, s, p.account, p.asset, D(i.amount), oc, w);
  if (oc.kind === 'invalid-state') {
    if (!p) return notCreated(w, 'was refused as invalid state');
    return p.status === 'active' && (o.seen || !o.spontaneousClose) ? { states: [], reason: `${w} was refused as invalid state, but the borrow is active then` } : { states: [s] };
  }
  if (oc.kind === 'not-found') return p ? wasCreated(w) : { states: [s] };
  return { states: [s] };
}

/** The step of any operation: what the checker's model and the walk both call. */
export function ledgerStep(o: LedgerOptions, s: State, i: LedgerInput, out: LedgerOutput): Step {
  switch (i.kind) {
    case 'withdraw':
    case 'lend':
    case 'borrow':
      return debitStep(o, s, i, out, out.outcome);
    case 'cancel':
      return cancelStep(o, s, i, out.outcome);
    case 'patch':
      return patchStep(o, s, i, out.outcome);
    case 'read':
      return readStep(o, s, i, out, out.outcome);
    case 'repay':
      return repayStep(o, s, i, out, out.outcome);
  }
}
