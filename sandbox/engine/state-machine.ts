import type { Profile } from '../../contract/index.ts';
import { ApiError } from '../answer/errors.ts';
import type { PositionRow } from '../store/rows.ts';

// The position lifecycle as a state machine: the profile's transition table is the only
// way a status changes. `PositionRow.status` is readonly, so an assignment elsewhere does
// not compile; `transition` below is the one place that writes it.

export type TransitionTable = Readonly<Record<string, readonly string[]>>;

/** The profile's `lifecycle.transitions`, plus the two moves its lifecycle names outright:
 *  active → `statusAfterFullRepay` and active → `statusAfterLiquidation` (a profile that
 *  names the status after a liquidation declares that move, listed or not). */
export function transitionTable(profile: Profile): TransitionTable {
  const l = profile.lifecycle;
  const table: Record<string, string[]> = {};
  for (const [from, to] of Object.entries(l.transitions)) table[from] = [...to];
  const active = (table.active ??= []);
  for (const named of [l.statusAfterFullRepay, l.statusAfterLiquidation]) if (!active.includes(named)) active.push(named);
  return table;
}

/** Moves the sandbox makes on its own (fills, expiry of an unmatched order, maturity): a
 *  table without them would leave due work that can never run. */
const REQUIRED: Array<[from: string, to: string, why: string]> = [
  ['pending', 'active', 'a filled order'],
  ['pending', 'cancelled', 'an order that expires unmatched'],
  ['active', 'matured', 'a position at maturity'],
];

export class Lifecycle {
  readonly table: TransitionTable;

  /** Refuses, at start, a profile whose table lacks a move the sandbox must make. */
  constructor(private readonly profile: Profile) {
    this.table = transitionTable(profile);
    for (const [from, to, why] of REQUIRED) {
      if (!this.can(from, to)) throw new Error(`sandbox: profile lifecycle.transitions lacks ${from} → ${to}, which ${why} needs`);
    }
  }

  can(from: string, to: string): boolean {
    return this.table[from]?.includes(to) ?? false;
  }

  /** Moves a position to a new status, refusing (with the profile's invalid-state error) moves the table does not list. */
  transition(r: PositionRow, to: string): void {
    if (!this.can(r.status, to)) {
      const e = this.profile.errors.invalidState;
      throw new ApiError(e.code, `status: position is ${r.status} and cannot become ${to}`, e.status);
    }
    (r as { status: string }).status = to;
  }
}
