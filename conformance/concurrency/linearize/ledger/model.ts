import type { History, Model } from '../checker/model.ts';
import type { LedgerInput, LedgerOutput } from '../../../ledger-model/operations.ts';
import { hull, initialState, positionsKey, showState, stateKey, type LedgerOptions, type State } from '../../../ledger-model/state.ts';
import { ledgerStep, what } from '../../../ledger-model/steps.ts';

// The ledger model (conformance/ledger-model/, the rules the model walk uses too) in the shape
// the checker takes any model (checker/model.ts): partition, init, step, describe. Here it is
// stepped over sets of states, funds kept as intervals, through every interleaving the storm's
// real times allow. Accounts never touch each other's funds, and a position's operations touch
// only its owner's, so a history splits by account: (partner, user).

export type LedgerHistory = History<LedgerInput, LedgerOutput>;

export function ledgerModel(o: LedgerOptions): Model<State, LedgerInput, LedgerOutput> {
  return {
    partition(history) {
      const by = new Map<string, LedgerHistory>();
      for (const op of history) {
        const part = by.get(op.input.account);
        if (part) part.push(op);
        else by.set(op.input.account, [op]);
      }
      return [...by.values()];
    },
    init: () => initialState(o),
    step: (s, i, out) => ledgerStep(o, s, i, out),
    key: stateKey,
    // States with the same positions merge into their hull (state.ts hull()): answers set aside
    // while shrinking would otherwise double the set at every step.
    compact(states) {
      const out = new Map<string, State>();
      for (const t of states) {
        const k = positionsKey(t);
        const had = out.get(k);
        out.set(k, had ? hull(had, t) : t);
      }
      return [...out.values()];
    },
    setAside(i, out) {
      if (out.outcome.kind === 'unknown') return undefined;
      // A read set aside changes nothing whenever it happens.
      if (i.kind === 'read') return 'omit';
      return { output: { ...out, outcome: { kind: 'unknown' } } };
    },
    describe: { operation: (i, out) => ({ call: what(i), answer: answer(i, out) }), state: showState },
  };
}

/** The answer in a few words: "202 accepted", "400 insufficient_funds (available 400)". */
function answer(i: LedgerInput, out: LedgerOutput): string {
  const r = out.received;
  if (!r) return 'no answer';
  const st = r.status;
  const oc = out.outcome;
  switch (oc.kind) {
    case 'ok':
      if (i.kind === 'lend' || i.kind === 'borrow') return `${st} accepted ${out.positionId}`;
      if (i.kind === 'read') return `${st} ${out.status ?? '(no status)'}${out.autoRollover !== undefined ? ` autoRollover ${out.autoRollover}` : ''}`;
      return `${st} accepted`;
    case 'insufficient':
      return `${st} insufficient_funds${oc.available !== undefined ? ` (available ${oc.available})` : ''}`;
    case 'invalid-state':
      return `${st} invalid state`;
    case 'not-found':
      return `${st} not found`;
    case 'unknown':
      return `${st} (outcome unknown)`;
    default:
      return `${st} ${r.code ?? ''} (no effect)`.replace('  ', ' ');
  }
}
