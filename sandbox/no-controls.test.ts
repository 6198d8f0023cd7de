import { afterEach, describe, expect, it } from 'vitest';
import { parseProfile } from '../contract/index.ts';
import { TestClock } from './engine/clock.ts';
import { runDueWork } from './engine/lifecycle.ts';
import { createSandbox, type Sandbox } from './app.ts';
import { defaultPlugins } from './plugins.ts';
import { caller, KEY_A } from './testing/helpers.ts';

// Without controls the sandbox stands in for a real partner sandbox: no /v1/sandbox/*
// routes, pre-funded users, matching only between crossing orders, real time unless a
// time scale is given.

describe('sandbox without controls', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => sb?.close());

  it('answers every /v1/sandbox/* path like an unknown route, with or without a key', async () => {
    sb = createSandbox({ controls: false, tickMs: 0, plugins: defaultPlugins({ webhooks: false }) });
    const call = caller(sb);
    const unknown = await call('GET', '/no-such-route');
    for (const [m, p] of [['GET', '/sandbox/clock'], ['POST', '/sandbox/clock/advance'], ['POST', '/sandbox/fund'], ['POST', '/sandbox/trigger'], ['GET', '/sandbox/events/e1/attempts'], ['POST', '/sandbox/oracle']] as const) {
      for (const key of [KEY_A, null]) {
        const r = await call(m, p, { key, body: m === 'POST' ? { seconds: 60 } : undefined });
        expect([m, p, r.status, r.body.error.code]).toEqual([m, p, unknown.status, unknown.body.error.code]);
      }
    }
    // The rate-limit plugin still sees them, like any other /v1 request.
    expect((await call('GET', '/sandbox/clock')).headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('funds a new user and matches crossing orders from two users, with no liquidity provider', async () => {
    const clock = new TestClock({ startMs: Date.parse('2026-01-01T00:00:00Z'), realNow: () => 0 });
    sb = createSandbox({ controls: false, clock, tickMs: 0, plugins: [] });
    const call = caller(sb);
    const lone = await call('POST', '/lend', { body: { userId: 'lone', asset: 'USDC', amount: '50000', rate: 0.2, maturity: '90d' } });
    expect(lone.status).toBe(201);
    clock.advance(3600_000); // far past the provider's 5 s: nothing fills it
    expect((await call('GET', `/positions/${lone.body.positionId}`)).body.status).toBe('pending');
    const lend = await call('POST', '/lend', { body: { userId: 'l', asset: 'USDC', amount: '100', rate: 0.05, maturity: '30d' } });
    const borrow = await call('POST', '/borrow', { body: { userId: 'b', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '100', rate: 0.06, maturity: '30d' } });
    expect([lend.status, borrow.status]).toEqual([201, 201]);
    const p = await call('GET', `/positions/${lend.body.positionId}`);
    expect(p.body.status).toBe('active');
  });

  it('runs at a time scale when told (an accelerated partner sandbox), still without controls', async () => {
    sb = createSandbox({ controls: false, timeScale: 60, plugins: [] });
    expect(sb.clock.timeScale).toBe(60);
    const r = await sb.fetch(new Request('http://sandbox.test/v1/sandbox/clock', { headers: { authorization: `Bearer ${KEY_A}` } }));
    expect(r.status).toBe(404);
  });

  // Why profile detect leaves amounts.liquidationRatio and lifecycle.statusAfterLiquidation
  // undetected on a target without controls: prices never move there, so only time
  // liquidates, by a borrow's interest outgrowing its collateral: months of business time.
  it('liquidates only by time without a price control: interest alone takes a borrow under the ratio after months', async () => {
    const DAY = 86_400_000;
    const at = async (liquidationRatio: string, days: number[]) => {
      const clock = new TestClock({ startMs: Date.parse('2026-01-01T00:00:00Z'), realNow: () => 0 });
      sb = createSandbox({ controls: false, clock, tickMs: 0, plugins: [], profile: parseProfile({ amounts: { liquidationRatio }, lifecycle: { statusAfterLiquidation: 'seized' } }) });
      const call = caller(sb);
      // At the minimum ratio 1.5 (ETH at 3 000 USD) and the highest rate, crossed by a lend.
      const borrow = await call('POST', '/borrow', { body: { userId: 'b', collateral: { asset: 'ETH', amount: '1.5' }, borrowAsset: 'USDC', borrowAmount: '3000', rate: 0.99, maturity: '180d' } });
      const lend = await call('POST', '/lend', { body: { userId: 'l', asset: 'USDC', amount: '3000', rate: 0.99, maturity: '180d' } });
      expect([borrow.status, lend.status]).toEqual([201, 201]);
      const seen: string[] = [];
      let day = 0;
      for (const d of days) {
        clock.advance((d - day) * DAY);
        day = d;
        runDueWork(sb.engine);
        seen.push(`${d}d ${(await call('GET', `/positions/${borrow.body.positionId}`)).body.status}`);
      }
      await sb.close();
      sb = undefined;
      return seen;
    };
    // 3 000 × (1 + 0.99 × t / 365) against 4 500: under 1.2 after about 92 days, under 1.1 after about 131.
    expect(await at('1.2', [1, 80, 100])).toEqual(['1d active', '80d active', '100d seized']);
    expect(await at('1.1', [1, 80, 100, 120, 140])).toEqual(['1d active', '80d active', '100d active', '120d active', '140d seized']);
  });
});
