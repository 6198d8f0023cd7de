import fc from 'fast-check';
import type { TestClock } from '../engine/clock.ts';
import type { Engine } from '../engine/engine.ts';
import { D, type Dec } from '../money/money.ts';

// Random operation sequences over the engine, shared by its property tests (value
// conservation, the lifecycle state machine): orders, matches, cancels, repays,
// withdrawals, clock jumps (maturity, rollover, refinance) and oracle moves (liquidation).

export const USERS = ['u1', 'u2', 'u3'];
export const PARTNERS = ['pa', 'pb'];
export const ASSETS = ['USDC', 'DAI'];

export type Cmd =
  | { k: 'fund'; p: string; u: string; asset: string; amount: string }
  | { k: 'lend'; p: string; u: string; asset: string; amount: string; rate: number; maturity: string; roll: boolean }
  | { k: 'borrow'; p: string; u: string; asset: string; amount: string; coll: string; collAsset: string; rate: number; maturity: string; refi: boolean }
  | { k: 'cancel'; pick: number }
  | { k: 'repay'; pick: number; amount?: string }
  | { k: 'withdraw'; p: string; u: string; asset: string; amount: string }
  | { k: 'advance'; seconds: number }
  | { k: 'oracle'; price: string };

const amount = fc.integer({ min: 1, max: 5000 }).chain((i) => fc.constantFrom(`${i}`, `${i}.5`, `${i}.25`));
const rate = fc.constantFrom(0.03, 0.04, 0.05, 0.06);
const maturity = fc.constantFrom('30d', '90d');
const who = { p: fc.constantFrom(...PARTNERS), u: fc.constantFrom(...USERS) };

export const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('fund' as const), ...who, asset: fc.constantFrom(...ASSETS, 'ETH'), amount }),
  fc.record({ k: fc.constant('lend' as const), ...who, asset: fc.constantFrom(...ASSETS), amount, rate, maturity, roll: fc.boolean() }),
  fc.record({
    k: fc.constant('borrow' as const), ...who, asset: fc.constantFrom(...ASSETS), amount, coll: fc.constantFrom('1', '2', '5'),
    collAsset: fc.constantFrom('ETH', 'DAI'), rate, maturity, refi: fc.boolean(),
  }),
  fc.record({ k: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ k: fc.constant('repay' as const), pick: fc.nat(), amount: fc.option(amount, { nil: undefined }) }),
  fc.record({ k: fc.constant('withdraw' as const), ...who, asset: fc.constantFrom(...ASSETS, 'ETH'), amount }),
  fc.record({ k: fc.constant('advance' as const), seconds: fc.constantFrom(3, 3600, 86400, 20 * 86400, 45 * 86400) }),
  fc.record({ k: fc.constant('oracle' as const), price: fc.constantFrom('500', '1500', '3000', '6000') }),
);

/** Runs one command; `ids` collects the positions placed, `external` what entered or left the ledger. */
export function run(engine: Engine, clock: TestClock, c: Cmd, ids: Array<[string, string]>, external: Map<string, Dec>): void {
  const ext = (asset: string, v: Dec) => external.set(asset, (external.get(asset) ?? new D(0)).plus(v));
  switch (c.k) {
    case 'fund':
      engine.fund(c.p, c.u, c.asset, c.amount);
      ext(c.asset, new D(c.amount));
      return;
    case 'lend':
      ids.push([c.p, engine.lend(c.p, { userId: c.u, asset: c.asset, amount: c.amount, rate: c.rate, maturity: c.maturity, autoRollover: c.roll }).id]);
      return;
    case 'borrow':
      ids.push([c.p, engine.borrow(c.p, {
        userId: c.u, collateral: { asset: c.collAsset, amount: c.collAsset === 'DAI' ? String(Number(c.coll) * 4000) : c.coll },
        borrowAsset: c.asset, borrowAmount: c.amount, rate: c.rate, maturity: c.maturity, autoRefinance: c.refi,
      }).id]);
      return;
    case 'cancel':
      if (ids.length) engine.cancel(...ids[c.pick % ids.length]);
      return;
    case 'repay':
      if (ids.length) engine.repay(...ids[c.pick % ids.length], c.amount);
      return;
    case 'withdraw': {
      engine.withdraw(c.p, c.u, { asset: c.asset, amount: c.amount, destination: `0x${'c'.repeat(40)}` });
      ext(c.asset, new D(c.amount).neg());
      return;
    }
    case 'advance':
      clock.advance(c.seconds * 1000);
      return;
    case 'oracle':
      engine.setOraclePrice('ETH', c.price);
      clock.advance(0); // runs the liquidation check like the control route does
      return;
  }
}
