// The ledger model's operations, in its own words: what was asked (input) and what the answer
// means (output). Its two users build them: the linearizability adapter
// (concurrency/linearize/ledger/adapter.ts) off a storm's HTTP exchanges, the model walk
// (model-walk/commands.ts) off each answer as it comes. The model never sees a path or a
// status code, except `received`, kept only to name an answer in a failure.

/** Whose money: one user as one partner sees it ("1/u-42"); "1/?" for a position whose create is not in the history. */
export const account = (partner: 1 | 2, user: string | undefined) => `${partner}/${user ?? '?'}`;

export type Flags = { autoRollover?: boolean; autoRefinance?: boolean };

export type LedgerInput =
  /** `amount`: a plain decimal string ("600", never "6e2"), as the adapter writes it. */
  | { kind: 'withdraw'; account: string; asset: string; amount: string }
  | { kind: 'lend'; account: string; asset: string; amount: string }
  /** `amount` of `asset` borrowed against `collateral`, which the order holds while it is open. */
  | { kind: 'borrow'; account: string; asset: string; amount: string; collateral: { asset: string; amount: string } }
  /** `amount` repaid of a borrow's principal; absent: the whole of it (principal and interest), which closes it. */
  | { kind: 'repay'; account: string; id: string; amount?: string }
  | { kind: 'cancel'; account: string; id: string }
  | { kind: 'read'; account: string; id: string }
  | { kind: 'patch'; account: string; id: string; flags: Flags };

/** What one operation's answer means to the model. */
export type Outcome =
  | { kind: 'ok' }
  | { kind: 'insufficient'; available?: string; required?: string }
  | { kind: 'invalid-state' }
  | { kind: 'not-found' }
  /** Refused before it touched the ledger (429, a validation 4xx): no effect. */
  | { kind: 'no-effect' }
  /** No answer, a 5xx, or an answer set aside while shrinking: it may or may not have taken effect. */
  | { kind: 'unknown' };

export interface LedgerOutput {
  outcome: Outcome;
  /** A lend or a borrow: the id its position goes by (the answer's; one of its own when none came, which nothing refers to). */
  positionId?: string;
  /** A read: the status shown. */
  status?: string;
  /** A lend or a read: the flag shown. */
  autoRollover?: boolean;
  /** A read: the amount shown (an open position's must be what was ordered). Absent: not checked. */
  amount?: string;
  /**
   * A read, or a full repay (as read after it): the interest accrued, a decimal string. Given, a
   * maturity or a full repay moves exactly principal and it; absent, an unknown amount.
   */
  accruedInterest?: string;
  /** The answer as received, only to name it in messages ("202 accepted"); absent when none came. */
  received?: { status: number; code?: string };
}
