import type { Profile } from '../../../../contract/index.ts';
import type { Exchanges } from '../../exchanges.ts';
import { check, type CheckOptions } from '../checker/check.ts';
import { ledgerHistory } from './adapter.ts';
import { ledgerModel } from './model.ts';
import type { LedgerOptions } from '../../../ledger-model/state.ts';

// A storm's record checked for linearizability against the ledger model: the adapter turns
// the exchanges into operations, the checker (which knows only the model interface) decides,
// and a failure's operations are mapped back to the exchanges they came from.

export interface LedgerCheck extends LedgerOptions {
  /** How answers are read (the profile's invalid-state code). */
  profile: Profile;
}

export interface LedgerVerdict {
  linearizable: boolean;
  /** The search ran out of budget: neither verdict holds (a check must not fail on it). */
  inconclusive: boolean;
  /** Operations the model reads. */
  operations: number;
  /** Exchanges it does not (see ledgerHistory). */
  ignored: Exchanges;
  steps: number;
  /** On a failure: the smallest set of conflicting answers found. */
  witness?: { operations: Exchanges; setAside: number; text: string; summary: string };
}

export function checkLedger(exchanges: Exchanges, o: LedgerCheck, opts: CheckOptions = {}): LedgerVerdict {
  const { history, ignored } = ledgerHistory(o.profile, exchanges);
  const v = check(ledgerModel(o), history, opts);
  const byId = new Map(exchanges.map((ex) => [ex.id, ex]));
  const w = v.witness;
  return {
    linearizable: v.linearizable,
    inconclusive: v.inconclusive,
    operations: v.operations,
    ignored,
    steps: v.steps,
    ...(w ? { witness: { ...w, operations: w.operations.map((op) => byId.get(op.id)!) } } : {}),
  };
}
