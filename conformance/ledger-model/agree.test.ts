import { describe, expect, it } from 'vitest';
import { Decimal } from '../../contract/decimal.ts';
import { check } from '../concurrency/linearize/checker/check.ts';
import type { History } from '../concurrency/linearize/checker/model.ts';
import { ledgerModel } from '../concurrency/linearize/ledger/model.ts';
import { apply, walkModel, WALK_LEDGER } from '../model-walk/model.ts';
import type { LedgerInput, LedgerOutput, Outcome } from './operations.ts';
import type { LedgerOptions } from './state.ts';

// The one ledger model's two uses agree: on sequential histories (no two operations overlap),
// the model walk's use (one state, exact funds, model-walk/model.ts apply()) and the
// linearizability checker's (sets of states, through the checker) allow the same answers. Each
// case is a history and, for its last operation, answers one of which the service might give:
// both uses must allow exactly the ones marked.

const A = '1/u';
const ok: Outcome = { kind: 'ok' };
const withdraw = (amount: string): LedgerInput => ({ kind: 'withdraw', account: A, asset: 'USDC', amount });
const lend = (amount: string): LedgerInput => ({ kind: 'lend', account: A, asset: 'USDC', amount });
const borrow = (amount: string, eth: string): LedgerInput => ({ kind: 'borrow', account: A, asset: 'USDC', amount, collateral: { asset: 'ETH', amount: eth } });
const cancel = (id: string): LedgerInput => ({ kind: 'cancel', account: A, id });
const read = (id: string): LedgerInput => ({ kind: 'read', account: A, id });
const patch = (id: string, autoRollover: boolean): LedgerInput => ({ kind: 'patch', account: A, id, flags: { autoRollover } });
const repay = (id: string, amount?: string): LedgerInput => ({ kind: 'repay', account: A, id, ...(amount ? { amount } : {}) });
const poor = (available?: string): LedgerOutput => ({ outcome: { kind: 'insufficient', ...(available ? { available } : {}) } });
const shows = (status: string, more: Partial<LedgerOutput> = {}): LedgerOutput => ({ outcome: ok, status, ...more });

type Op = [LedgerInput, LedgerOutput];
interface Case {
  name: string;
  ops: Op[];
  /** Answers to the last operation, each allowed or not. */
  last: [LedgerInput, Array<[LedgerOutput, boolean]>];
}

const cases: Case[] = [
  {
    name: 'a withdrawal beyond what is left',
    ops: [[withdraw('600'), { outcome: ok }]],
    last: [withdraw('500'), [[{ outcome: ok }, false], [poor('400'), true], [poor('500'), false], [poor(), true]]],
  },
  {
    name: 'a cancel gives back what the lend held, once',
    ops: [[lend('300'), { outcome: ok, positionId: 'p1' }], [cancel('p1'), { outcome: ok }]],
    last: [withdraw('1000'), [[{ outcome: ok }, true], [poor('700'), false], [poor('1000'), false], [poor(), false]]],
  },
  {
    name: 'a second cancel of a cancelled order',
    ops: [[lend('300'), { outcome: ok, positionId: 'p1' }], [cancel('p1'), { outcome: ok }]],
    last: [cancel('p1'), [[{ outcome: ok }, false], [{ outcome: { kind: 'invalid-state' } }, true], [{ outcome: { kind: 'not-found' } }, false]]],
  },
  {
    name: 'a matched lend is not cancelled, and does not read pending again',
    ops: [[lend('300'), { outcome: ok, positionId: 'p1' }], [read('p1'), shows('active')], [cancel('p1'), { outcome: { kind: 'invalid-state' } }]],
    last: [read('p1'), [[shows('active'), true], [shows('pending'), false], [shows('active', { amount: '300' }), true], [shows('active', { amount: '299' }), false]]],
  },
  {
    name: 'a PATCH is read back',
    ops: [[lend('100'), { outcome: ok, positionId: 'p1', autoRollover: false }], [patch('p1', true), { outcome: ok }]],
    last: [read('p1'), [[shows('pending', { autoRollover: true }), true], [shows('pending', { autoRollover: false }), false]]],
  },
  {
    name: 'a borrow holds its collateral and, matched, pays out what it borrowed',
    ops: [[borrow('100', '0.5'), { outcome: ok, positionId: 'b1' }], [read('b1'), shows('active')]],
    last: [withdraw('1100'), [[{ outcome: ok }, true], [poor('1100'), false], [poor('1000'), false]]],
  },
  {
    name: "a borrow's collateral is taken while it is open",
    ops: [[borrow('100', '0.5'), { outcome: ok, positionId: 'b1' }]],
    last: [borrow('100', '0.6'), [[{ outcome: ok }, false], [poor('0.5'), true], [poor('1'), false]]],
  },
  {
    name: 'a full repay takes principal and interest, less what was repaid, and gives the collateral back',
    ops: [
      [borrow('100', '0.5'), { outcome: ok, positionId: 'b1' }],
      [read('b1'), shows('active')],
      [repay('b1', '20'), { outcome: ok }],
      [repay('b1'), { outcome: ok, accruedInterest: '1.5' }],
    ],
    last: [withdraw('1000'), [[poor('998.5'), true], [poor('980'), false], [{ outcome: ok }, false]]],
  },
  {
    name: 'the collateral a full repay gave back can be pledged again',
    ops: [[borrow('100', '0.5'), { outcome: ok, positionId: 'b1' }], [read('b1'), shows('active')], [repay('b1'), { outcome: ok, accruedInterest: '0' }]],
    last: [borrow('50', '1'), [[{ outcome: ok }, true], [poor('0.5'), false], [poor(), false]]],
  },
];

/** Whether the walk's use allows the history: each operation stepped in turn on its one state. */
function walkAllows(ops: Op[], start: Record<string, string>): boolean {
  const m = walkModel(A, Object.fromEntries(Object.entries(start).map(([a, x]) => [a, new Decimal(x)])), true);
  return ops.every(([i, o]) => apply(m, i, o) === undefined);
}

/** Whether the checker's use allows it: the same operations, one after another in real time. */
function checkerAllows(ops: Op[], o: LedgerOptions): boolean {
  const h: History<LedgerInput, LedgerOutput> = ops.map(([input, output], k) => ({ id: k, client: 0, input, output, call: 2 * k, return: 2 * k + 1 }));
  return check(ledgerModel(o), h).linearizable;
}

const start = { USDC: '1000', ETH: '1' };

describe('the walk and the linearizability checker use one ledger model', () => {
  for (const c of cases) {
    it(c.name, () => {
      const [input, answers] = c.last;
      for (const [output, allowed] of answers) {
        const ops: Op[] = [...c.ops, [input, output]];
        const label = `${JSON.stringify(input)} → ${JSON.stringify(output)}`;
        expect(walkAllows(ops, start), `walk: ${label}`).toBe(allowed);
        // The checker as the walk steps it, and as the storm check does (no order closes on its own here).
        expect(checkerAllows(ops, { ...WALK_LEDGER, start: { [A]: start } }), `checker, walk options: ${label}`).toBe(allowed);
        expect(checkerAllows(ops, { spontaneousClose: false, start: { [A]: start } }), `checker, storm options: ${label}`).toBe(allowed);
      }
    });
  }

  it("their one difference is the walk's `seen`: a refused cancel of an order that still reads pending", () => {
    // One request at a time, a refused cancel's cause must show in the read after it; amid a
    // storm the order may have been part-filled, and a part-filled order still reads pending.
    const ops: Op[] = [[lend('300'), { outcome: ok, positionId: 'p1' }], [cancel('p1'), { outcome: { kind: 'invalid-state' } }], [read('p1'), shows('pending')]];
    expect(walkAllows(ops, start)).toBe(false);
    expect(checkerAllows(ops, { spontaneousClose: false, start: { [A]: start } })).toBe(true);
  });

  it('funds the walk could not learn stay unknown in both: only what an answer proves is held to', () => {
    const ops: Op[] = [[withdraw('600'), { outcome: ok }], [withdraw('500'), poor()]];
    const m = walkModel(A, { USDC: undefined }, false);
    expect(ops.every(([i, o]) => apply(m, i, o) === undefined)).toBe(true);
    expect(checkerAllows(ops, { spontaneousClose: false })).toBe(true);
  });
});
