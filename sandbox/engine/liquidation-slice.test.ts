import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app.ts';
import { TestClock } from './clock.ts';
import { runDueWork } from './lifecycle.ts';

// The background collateral scan in slices: each tick checks a bounded number of active
// borrows, and a whole pass still reaches every one of them.

const N = 400;
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

function setUp() {
  const clock = new TestClock({ startMs: Date.parse('2026-01-01T00:00:00Z'), realNow: () => 0 });
  sb = createSandbox({ clock, plugins: [], tickMs: 0, startingFunds: {}, liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false, groupCommit: false });
  const e = sb.engine;
  e.fund('pa', 'lender', 'USDC', String(100 * N));
  e.fund('pb', 'borrower', 'ETH', String(N));
  for (let i = 0; i < N; i++) {
    e.lend('pa', { userId: 'lender', asset: 'USDC', amount: '100', rate: 0.05, maturity: '30d' });
    e.borrow('pb', { userId: 'borrower', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '100', rate: 0.05, maturity: '30d' });
  }
  const count = (status: string) => e.db.prepare("SELECT COUNT(*) FROM positions WHERE type = 'borrow' AND status = ?").pluck().get(status) as number;
  expect(count('active')).toBe(N);
  return { e, count, slice: () => runDueWork(e, e.now(), { liquidations: { tickMs: 250, passMs: 1000 } }) };
}

describe('background liquidation scan in slices', () => {
  it('checks at most a slice per tick and every active borrow within a pass', () => {
    const { e, count, slice } = setUp();
    // First pass: the size of the book is not known yet, so slices are of the minimum (64).
    const firstPass = Math.ceil(N / 64);
    for (let i = 0; i < firstPass; i++) expect(slice()).toBe(0);
    // ETH collapses; the oracle control would scan everything, the timer's slices do it in pieces.
    e.tx(() => e.ledger.putPrice('ETH', '0.0001'));
    // Now a pass of 1000 ms at 250 ms ticks is 4 slices of N / 4.
    const sizes = [slice(), slice(), slice(), slice()];
    expect(sizes).toEqual([N / 4, N / 4, N / 4, N / 4]);
    expect(count('active')).toBe(0);
    expect(slice()).toBe(0);
  });

  it('the default run still scans every active borrow at once', () => {
    const { e, count } = setUp();
    e.tx(() => e.ledger.putPrice('ETH', '0.0001'));
    expect(runDueWork(e)).toBe(N);
    expect(count('active')).toBe(0);
  });
});
