import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from './clock.ts';
import { createSandbox, type Sandbox } from './app.ts';
import { defaultPlugins } from './plugins.ts';
import { caller, KEY_A } from './test-helpers.ts';

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
    const r = await sb.app.fetch(new Request('http://sandbox.test/v1/sandbox/clock', { headers: { authorization: `Bearer ${KEY_A}` } }));
    expect(r.status).toBe(404);
  });
});
