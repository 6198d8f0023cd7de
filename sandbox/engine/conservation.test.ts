import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../app.ts';
import { TestClock } from './clock.ts';
import { ApiError } from '../answer/errors.ts';
import type { Engine } from './engine.ts';
import { D, str, type Dec } from '../money/money.ts';
import type { PositionRow } from '../store/rows.ts';
import { ASSETS, cmd, PARTNERS, run, USERS } from '../testing/engine-ops.ts';

// Value conservation: per asset, over every account including the house,
//   Σ available + Σ locked + Σ lent (open lend principal) + Σ collateral (open borrows)
//     − Σ debt (open borrow principal)  =  Σ funded − Σ withdrawn
// holds exactly after any sequence of orders, matches, cancels, repays, withdrawals,
// clock jumps (interest, maturity, rollover, refinance) and oracle moves (liquidation).
// Interest moves value between a user and the house, so it cancels out of the sum.

function sums(engine: Engine): Map<string, Dec> {
  const m = new Map<string, Dec>();
  const add = (asset: string, v: Dec) => m.set(asset, (m.get(asset) ?? new D(0)).plus(v));
  for (const b of engine.db.prepare('SELECT asset, available, locked FROM balances').all() as Array<{ asset: string; available: string; locked: string }>) {
    add(b.asset, new D(b.available).plus(b.locked));
  }
  for (const r of engine.db.prepare("SELECT * FROM positions WHERE status IN ('pending', 'active')").all() as PositionRow[]) {
    if (r.type === 'lend') add(r.asset, new D(r.filled));
    else {
      add(r.collateral_asset!, new D(r.collateral_amount!));
      add(r.asset, new D(r.debt).neg());
    }
  }
  return m;
}

describe('engine value conservation (property)', () => {
  // What the random runs reached, so a generator that stops exercising a path shows.
  const reach = new Map<string, number>();
  it('holds over random sequences of orders, matches, cancels, repays, withdrawals, clock jumps and oracle moves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 5, maxLength: 40, size: 'max' }), fc.boolean(), async (cmds, liquidity) => {
        const clock = new TestClock({ startMs: Date.parse('2026-01-01T00:00:00Z'), realNow: () => 0 });
        const sb = createSandbox({ clock, plugins: [], tickMs: 0, startingFunds: {}, liquidity: { enabled: liquidity, delaySeconds: 5 }, validateResponses: false });
        try {
          const engine = sb.engine;
          const ids: Array<[string, string]> = [];
          const external = new Map<string, Dec>();
          // Seed every account so most generated orders can go through.
          for (const p of PARTNERS) for (const u of USERS) for (const asset of [...ASSETS, 'ETH']) run(engine, clock, { k: 'fund', p, u, asset, amount: '20000' }, ids, external);
          const done: Record<string, number> = {};
          for (const c of cmds) {
            try {
              run(engine, clock, c, ids, external);
              done[c.k] = (done[c.k] ?? 0) + 1;
            } catch (e) {
              if (!(e instanceof ApiError)) throw e;
              expect(e.status).toBeLessThan(500);
            }
            const s = sums(engine);
            for (const asset of new Set([...s.keys(), ...external.keys()])) {
              expect(str(s.get(asset) ?? new D(0)), `${asset} after ${c.k}`).toBe(str(external.get(asset) ?? new D(0)));
            }
            const neg = engine.db
              .prepare("SELECT * FROM balances WHERE partner_id <> '__house'")
              .all()
              .filter((b: any) => new D(b.available).isNeg() || new D(b.locked).isNeg());
            expect(neg, 'no user balance goes negative').toEqual([]);
          }
          const statuses = engine.db.prepare('SELECT status, COUNT(*) AS n FROM positions GROUP BY status').all() as Array<{ status: string; n: number }>;
          for (const s of statuses) reach.set(s.status, (reach.get(s.status) ?? 0) + s.n);
          for (const [k, n] of Object.entries(done)) reach.set(`ok:${k}`, (reach.get(`ok:${k}`) ?? 0) + n);
          reach.set('rolled', (reach.get('rolled') ?? 0) + (engine.db.prepare('SELECT COUNT(*) FROM positions WHERE rolled_to IS NOT NULL').pluck().get() as number));
        } finally {
          await sb.close();
        }
      }),
      { numRuns: Number(process.env.PROP_RUNS ?? 100) },
    );
    for (const k of ['matured', 'liquidated', 'cancelled', 'active', 'rolled', 'ok:repay', 'ok:withdraw', 'ok:borrow', 'ok:lend']) {
      expect(reach.get(k) ?? 0, `runs reached ${k}`).toBeGreaterThan(0);
    }
  }, 300_000);
});
