import { describe, expect, it } from 'vitest';
import { borrow, expectError, lend } from './bodies.ts';
import type { Caller } from '../helpers.ts';

// The second half of describeEndpoints (endpoints.suite.ts): lists, withdrawals, market
// data, the lifecycle through the controls, and routing. `current` gives the caller of
// the running test (each test gets a fresh target).

export function readAndControlCases(current: () => Caller): void {
  const call: Caller = (...args) => current()(...args);

  describe('lists', () => {
    it('filters by status and type, defaults to 20, and omits nextCursor on the last page', async () => {
      for (let i = 0; i < 22; i++) await call('POST', '/lend', { body: lend('u1', { amount: '10', rate: 0.09 }) });
      await call('POST', '/borrow', { body: borrow('u1', { rate: 0.01 }) });
      const first = await call('GET', '/users/u1/positions');
      expect(first.status).toBe(200);
      expect(first.body.positions).toHaveLength(20);
      expect(first.body.hasMore).toBe(true);
      const borrows = await call('GET', '/users/u1/positions?type=borrow');
      expect(borrows.body.positions).toHaveLength(1);
      expect(borrows.body.hasMore).toBe(false);
      expect(borrows.body).not.toHaveProperty('nextCursor');
      const pending = await call('GET', '/users/u1/positions?status=pending&type=lend&limit=100');
      expect(pending.body.positions).toHaveLength(22);
      expect((await call('GET', '/users/u1/positions?status=matured')).body.positions).toEqual([]);
    });
    it('walks with a cursor without skips or repeats while positions are inserted', async () => {
      const made = new Set<string>();
      for (let i = 0; i < 25; i++) made.add((await call('POST', '/lend', { body: lend('u1', { amount: '10', rate: 0.09 }) })).body.positionId);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const r = await call('GET', `/users/u1/positions?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(r.status).toBe(200);
        seen.push(...r.body.positions.map((p: any) => p.positionId));
        expect(r.body.hasMore).toBe(r.body.nextCursor !== undefined);
        await call('POST', '/lend', { body: lend('u1', { amount: '10', rate: 0.09 }) });
        if (!r.body.hasMore) break;
        cursor = r.body.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of made) expect(seen).toContain(id);
    });
    it('rejects a limit over 100, a bad limit, a bad filter and a tampered cursor', async () => {
      expectError(await call('GET', '/users/u1/positions?limit=101'), 400, 'invalid_request', 'limit');
      expectError(await call('GET', '/users/u1/positions?limit=abc'), 400, 'invalid_request', 'limit');
      expectError(await call('GET', '/users/u1/positions?limit=0'), 400, 'invalid_request', 'limit');
      expectError(await call('GET', '/users/u1/positions?status=open'), 400, 'invalid_request', 'status');
      for (let i = 0; i < 3; i++) await call('POST', '/lend', { body: lend('u1', { amount: '10', rate: 0.09 }) });
      const r = await call('GET', '/users/u1/positions?limit=1');
      const c: string = r.body.nextCursor;
      const tampered = `${c.slice(0, -2)}${c.endsWith('AA') ? 'AB' : 'AA'}`;
      expectError(await call('GET', `/users/u1/positions?cursor=${encodeURIComponent(tampered)}`), 400, 'invalid_request', 'cursor');
      expectError(await call('GET', '/users/u1/positions?cursor=garbage'), 400, 'invalid_request', 'cursor');
      expectError(await call('GET', `/users/u2/positions?cursor=${encodeURIComponent(c)}`), 400, 'invalid_request', 'cursor');
    });
    it('answers an unseen user with an empty list', async () => {
      const r = await call('GET', '/users/nobody/positions');
      expect(r.body).toEqual({ positions: [], hasMore: false });
    });
  });

  describe('withdrawals', () => {
    const dest = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
    it('accepts with 202 and completes after the sandbox delay', async () => {
      const r = await call('POST', '/users/u1/withdraw', { body: { asset: 'USDC', amount: '250.5', destination: dest } });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ status: 'pending', amount: '250.5', destination: dest, userId: 'u1' });
      const b = await call('GET', '/sandbox/users/u1/balances');
      expect(b.body.balances.find((x: any) => x.asset === 'USDC').available).toBe('99749.5');
      const adv = await call('POST', '/sandbox/clock/advance', { body: { seconds: 60 } });
      expect(adv.status).toBe(200);
    });
    it('validates asset, amount and destination', async () => {
      expectError(await call('POST', '/users/u1/withdraw', { body: { asset: 'USDC', amount: '1', destination: '0x123' } }), 400, 'invalid_request', 'destination');
      expectError(await call('POST', '/users/u1/withdraw', { body: { asset: 'DOGE', amount: '1', destination: dest } }), 400, 'invalid_request', 'asset');
      expectError(await call('POST', '/users/u1/withdraw', { body: { asset: 'USDC', amount: '0', destination: dest } }), 400, 'invalid_request', 'amount');
      expectError(await call('POST', '/users/u1/withdraw', { body: { asset: 'USDC', amount: '1.1234567', destination: dest } }), 400, 'invalid_request', 'amount');
      expectError(await call('POST', '/users/u1/withdraw', { body: { asset: 'USDC', destination: dest } }), 400, 'invalid_request', 'amount');
    });
    it('answers insufficient_funds', async () => {
      const r = await call('POST', '/users/u1/withdraw', { body: { asset: 'USDC', amount: '200000', destination: dest } });
      expectError(r, 400, 'insufficient_funds');
      expect(r.body.error.details).toEqual({ required: '200000', available: '100000' });
    });
  });

  describe('market data', () => {
    it('GET /rates lists lend, borrow and spread per asset × maturity from the books', async () => {
      await call('POST', '/lend', { body: lend('l1', { rate: 0.061 }) });
      await call('POST', '/borrow', { body: borrow('b1', { rate: 0.052 }) });
      const r = await call('GET', '/rates');
      expect(r.status).toBe(200);
      const q = r.body.rates.find((x: any) => x.asset === 'USDC' && x.maturity === '30d');
      expect(q).toMatchObject({ lendRate: 0.052, borrowRate: 0.061, spread: 0.009 });
      expect(r.body.rates).toHaveLength(9);
    });
    it('the order book path answers the authenticated variant with a key, the public one without', async () => {
      await call('POST', '/lend', { body: lend('l1', { rate: 0.07, amount: '100' }) });
      await call('POST', '/lend', { body: lend('l2', { rate: 0.07, amount: '50' }) });
      await call('POST', '/lend', { body: lend('l3', { rate: 0.08, amount: '10', maturity: '90d' }) });
      const auth = await call('GET', '/markets/USDC/orderbook?maturity=30d&depth=5');
      expect(auth.status).toBe(200);
      expect(auth.body).toMatchObject({ asset: 'USDC', maturity: '30d', lends: [{ rate: 0.07, amount: '150' }], borrows: [] });
      const all = await call('GET', '/markets/USDC/orderbook?depth=1');
      expect(all.body.lends).toEqual([{ rate: 0.07, amount: '150' }]);
      const pub = await call('GET', '/markets/USDC-30d/orderbook', { key: null });
      expect(pub.status).toBe(200);
      expect(pub.body).toEqual({ lends: [{ rate: 0.07, amount: '150' }], borrows: [] });
      expectError(await call('GET', '/markets/USDC-30d/orderbook', { key: 'ck_test_wrong' }), 401, 'authentication_failed');
      expectError(await call('GET', '/markets/DOGE/orderbook'), 400, 'invalid_request', 'asset');
      expectError(await call('GET', '/markets/USDC/orderbook?maturity=45d'), 400, 'invalid_request', 'maturity');
      expectError(await call('GET', '/markets/USDC/orderbook?depth=0'), 400, 'invalid_request', 'depth');
      expectError(await call('GET', '/markets/NOPE-1d/orderbook', { key: null }), 404, 'not_found', 'id');
    });
    it('public markets show totals; public rates use the envelope', async () => {
      await call('POST', '/lend', { body: lend('l1') });
      await call('POST', '/borrow', { body: borrow('b1', { borrowAmount: '600' }) });
      const m = await call('GET', '/markets', { key: null });
      expect(m.status).toBe(200);
      expect(m.body.markets.find((x: any) => x.id === 'USDC-30d')).toMatchObject({ totalLent: '600', totalBorrowed: '600' });
      const r = await call('GET', '/markets/rates', { key: null });
      expect(r.status).toBe(200);
      expect(r.body.data.rates.length).toBeGreaterThan(0);
      expect(typeof r.body.timestamp).toBe('string');
    });
    it('analytics come from recorded history', async () => {
      await call('POST', '/lend', { body: lend('l1') });
      await call('POST', '/borrow', { body: borrow('b1') });
      await call('POST', '/sandbox/clock/advance', { body: { seconds: 7200 } });
      const tvl = await call('GET', '/analytics/tvl?period=1d', { key: null });
      expect(tvl.status).toBe(200);
      expect(tvl.body.data.points.at(-1).value).toBe('1000');
      expect(tvl.body.data.points.length).toBeGreaterThanOrEqual(2);
      const vol = await call('GET', '/analytics/volume?period=1d', { key: null });
      const total = vol.body.data.points.reduce((s: number, p: any) => s + Number(p.value), 0);
      expect(total).toBe(1000);
      const rs = await call('GET', '/analytics/rates?asset=USDC&maturity=30d&period=7d', { key: null });
      expect(rs.status).toBe(200);
      expect(rs.body.data.points.at(-1).value).toBeTypeOf('number');
      expectError(await call('GET', '/analytics/tvl?period=2w', { key: null }), 400, 'invalid_request', 'period');
      expectError(await call('GET', '/analytics/rates?asset=DOGE', { key: null }), 400, 'invalid_request', 'asset');
      expectError(await call('GET', '/analytics/rates?maturity=45d', { key: null }), 400, 'invalid_request', 'maturity');
    });
    it('vaults come from config', async () => {
      const v = await call('GET', '/vaults', { key: null });
      expect(v.status).toBe(200);
      expect(v.body.data.vaults.length).toBeGreaterThan(0);
      const one = await call('GET', `/vaults/${v.body.data.vaults[0].id}`, { key: null });
      expect(one.body.data.id).toBe(v.body.data.vaults[0].id);
      expectError(await call('GET', '/vaults/nope', { key: null }), 404, 'not_found', 'id');
    });
  });

  describe('lifecycle through the controls', () => {
    it('accrues interest with the clock, matures, and auto-rolls', async () => {
      const l = await call('POST', '/lend', { body: lend('l1', { rate: 0.0365 }) });
      await call('POST', '/borrow', { body: borrow('b1', { rate: 0.0365, autoRefinance: true }) });
      await call('POST', '/sandbox/clock/advance', { body: { seconds: 10 * 86400 } });
      const mid = await call('GET', `/positions/${l.body.positionId}`);
      expect(mid.body.accruedInterest).toBe('1'); // 1000 × 3.65 % × 10/365
      expect(mid.body.projectedReturn).toBe('3');
      expect(mid.body.cbt.amount).toBe('1003');
      await call('POST', '/sandbox/clock/advance', { body: { seconds: 20 * 86400 } });
      const done = await call('GET', `/positions/${l.body.positionId}`);
      expect(done.body.status).toBe('matured');
      expect(done.body.rolledTo).toMatch(/^pos_/);
      const next = await call('GET', `/positions/${done.body.rolledTo}`);
      expect(next.body).toMatchObject({ status: 'pending', amount: '1003', autoRollover: true });
    });
    it('liquidates a borrow when the oracle price falls', async () => {
      await call('POST', '/lend', { body: lend('l1') });
      const b = await call('POST', '/borrow', { body: borrow('b1') });
      const o = await call('POST', '/sandbox/oracle', { body: { asset: 'ETH', priceUsd: '1100' } });
      expect(o.status).toBe(200);
      expect((await call('GET', `/positions/${b.body.positionId}`)).body.status).toBe('liquidated');
      expectError(await call('POST', '/sandbox/oracle', { body: { asset: 'ETH', priceUsd: '-1' } }), 400, 'invalid_request', 'priceUsd');
      expectError(await call('POST', '/sandbox/oracle', { body: { asset: 'DOGE', priceUsd: '1' } }), 400, 'invalid_request', 'asset');
    });
    it('fund, balances and clock', async () => {
      const f = await call('POST', '/sandbox/fund', { body: { userId: 'u9', asset: 'DAI', amount: '5.5' } });
      expect(f.status).toBe(200);
      expect(f.body.balances.find((x: any) => x.asset === 'DAI').available).toBe('100005.5');
      expectError(await call('POST', '/sandbox/fund', { body: { userId: 'u9', asset: 'DAI', amount: '0' } }), 400, 'invalid_request', 'amount');
      expectError(await call('POST', '/sandbox/fund', { body: { userId: 'u9', asset: 'DOGE', amount: '1' } }), 400, 'invalid_request', 'asset');
      const c = await call('GET', '/sandbox/clock');
      expect(c.body.timeScale).toBe(1);
      const a = await call('POST', '/sandbox/clock/advance', { body: { seconds: 3600 } });
      expect(Date.parse(a.body.now) - Date.parse(c.body.now)).toBeGreaterThanOrEqual(3_600_000);
      expectError(await call('POST', '/sandbox/clock/advance', { body: { seconds: -1 } }), 400, 'invalid_request', 'seconds');
    });
  });

  describe('routing', () => {
    it('answers an unknown route with a 404 error object', async () => {
      expectError(await call('GET', '/nope'), 404, 'not_found', 'path');
      expectError(await call('GET', '/../v2/lend', { key: null }), 404, 'not_found');
    });
    it('answers a known path with the wrong method with 405 and Allow', async () => {
      const r = await call('DELETE', '/lend');
      expectError(r, 405, 'invalid_request', 'method');
      expect(r.headers.get('allow')).toBe('POST');
    });
  });
}
