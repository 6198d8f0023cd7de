// Every acknowledged write of a scenario, as one sample of the `ledger_acks` counter whose tags
// say who did what with how much: the audit after the run (cli/load/audit/) reads them from
// k6's sample output to know which users the run touched, which orders it was told exist and
// what money each answer moved. A tag per position is many time series, but a load run writes
// far fewer orders than it makes requests, and the samples file already holds every request.
import { Counter } from 'k6/metrics';

export const acks = new Counter('ledger_acks');

export type AckOp = 'lend' | 'borrow' | 'cancel' | 'withdraw' | 'repay';

export interface Ack {
  user: string;
  asset: string;
  amount?: string;
  /** The position created or acted on. */
  id?: string;
  /** Index of the pool key that made the call (matching); absent: the run's key. */
  key?: string;
}

export function ack(op: AckOp, a: Ack): void {
  const tags: Record<string, string> = { op, user: a.user, asset: a.asset };
  if (a.amount !== undefined) tags.amount = a.amount;
  if (a.id !== undefined) tags.position = a.id;
  if (a.key !== undefined) tags.pool_key = a.key;
  acks.add(1, tags);
}
