import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultProfile, endpoints, insufficientFundsError } from '../../../contract/index.ts';
import { readAndControlCases } from './reads.suite.ts';
import { borrow, expectError, lend } from './bodies.ts';
import { KEY_B, type Caller } from '../helpers.ts';

// Every endpoint's success path and each error it can give, written once against a
// Caller so the same cases run in-process (app.test.ts) and over HTTP (server.test.ts).
// Orders and positions are here; lists, withdrawals, market data, the controls and
// routing in reads.suite.ts.

export interface Target {
  call: Caller;
  close(): Promise<void>;
}

export function describeEndpoints(label: string, setup: () => Promise<Target>): void {
  describe(`sandbox endpoints (${label})`, () => {
    let t: Target;
    let call: Caller;
    beforeEach(async () => {
      t = await setup();
      call = t.call;
    });
    afterEach(async () => t.close());

    describe('auth', () => {
      it('accepts a ck_test_ key from the store', async () => {
        expect((await call('GET', '/rates')).status).toBe(200);
      });
      for (const [why, header] of [
        ['missing header', undefined],
        ['wrong scheme', 'Basic abc'],
        ['malformed key', 'Bearer not a key'],
        ['unknown key', 'Bearer ck_test_nobody'],
        ['production key', 'Bearer ck_live_partner_a_growth'],
      ] as const) {
        it(`refuses a ${why} with 401 authentication_failed`, async () => {
          const r = await call('GET', '/rates', { key: null, headers: header ? { authorization: header } : {} });
          expectError(r, 401, 'authentication_failed', 'Authorization');
          expect(JSON.stringify(r.body)).not.toContain('ck_');
        });
      }
      it('answers 401 on every keyed endpoint without a key', async () => {
        for (const e of endpoints(defaultProfile)) {
          if (e.access === 'public' || e.id.startsWith('webhooks.') || e.id === 'sandbox.trigger' || e.id === 'sandbox.attempts') continue;
          if (e.id === 'orderbook.get') continue; // shares its path with the public order book
          const path = e.path.replace(/\{\w+\}/g, 'x');
          const r = await call(e.method, path, { key: null, body: e.method === 'GET' ? undefined : {} });
          expect(r.status, `${e.method} ${e.path}`).toBe(401);
          expect(r.body.error.code).toBe('authentication_failed');
        }
      });
      it('guards the sandbox controls too', async () => {
        expectError(await call('GET', '/sandbox/clock', { key: null }), 401, 'authentication_failed');
      });
    });

    describe('POST /lend', () => {
      it('creates a pending order and locks its funds', async () => {
        const r = await call('POST', '/lend', { body: lend('u1') });
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ status: 'pending', userId: 'u1', asset: 'USDC', amount: '1000', rate: 0.05, autoRollover: true });
        expect(r.body).not.toHaveProperty('type');
        const b = await call('GET', '/sandbox/users/u1/balances');
        expect(b.body.balances.find((x: any) => x.asset === 'USDC')).toEqual({ asset: 'USDC', available: '99000', locked: '1000' });
      });
      it('takes the market rate in easy mode without a rate', async () => {
        const rates = await call('GET', '/rates');
        const q = rates.body.rates.find((x: any) => x.asset === 'USDC' && x.maturity === '30d');
        const r = await call('POST', '/lend', { body: { userId: 'u1', asset: 'USDC', amount: '10' } });
        expect(r.status).toBe(201);
        expect(r.body.rate).toBe(q.lendRate);
      });
      it('defaults autoRollover in advanced mode from the profile and needs a rate there', async () => {
        const r = await call('POST', '/lend', { body: lend('u1', { mode: 'advanced' }) });
        expect(r.body.autoRollover).toBe(false);
        expectError(await call('POST', '/lend', { body: { userId: 'u1', asset: 'USDC', amount: '10', mode: 'advanced' } }), 400, 'invalid_request', 'rate');
      });
      it('maps an ISO date maturity to the nearest market', async () => {
        const r = await call('POST', '/lend', { body: lend('u1', { maturity: '2026-04-05' }) });
        expect(r.status).toBe(201);
        const p = await call('GET', `/positions/${r.body.positionId}`);
        expect(p.body.market).toBe('90d');
      });
      const bad: Array<[string, unknown, string]> = [
        ['a number amount', lend('u1', { amount: 100 }), 'amount'],
        ['a negative amount', lend('u1', { amount: '-5' }), 'amount'],
        ['a zero amount', lend('u1', { amount: '0' }), 'amount'],
        ['an over-precise amount', lend('u1', { amount: '1.1234567' }), 'amount'],
        ['an exponent amount', lend('u1', { amount: '1e3' }), 'amount'],
        ['an unknown asset', lend('u1', { asset: 'DOGE' }), 'asset'],
        ['a maturity with no market', lend('u1', { maturity: '45d' }), 'maturity'],
        ['a malformed maturity', lend('u1', { maturity: 'next week' }), 'maturity'],
        ['a past maturity date', lend('u1', { maturity: '2020-01-01' }), 'maturity'],
        ['a rate given as a percent', lend('u1', { rate: 5 }), 'rate'],
        ['a missing userId', { asset: 'USDC', amount: '1' }, 'userId'],
        ['a string autoRollover', lend('u1', { autoRollover: 'yes' }), 'autoRollover'],
        ['an amount under the minimum order', lend('u1', { amount: '0.5' }), 'amount'],
      ];
      for (const [why, body, field] of bad) {
        it(`rejects ${why} with 400 naming ${field}`, async () => {
          expectError(await call('POST', '/lend', { body }), 400, 'invalid_request', field);
        });
      }
      it('rejects malformed JSON', async () => {
        expectError(await call('POST', '/lend', { raw: '{"userId":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request', 'body');
      });
      it('rejects a body that is not an object', async () => {
        expectError(await call('POST', '/lend', { raw: '[1]', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request', 'body');
      });
      it('rejects a missing or wrong Content-Type', async () => {
        expectError(await call('POST', '/lend', { raw: JSON.stringify(lend('u1')) }), 400, 'invalid_request', 'Content-Type');
        expectError(await call('POST', '/lend', { raw: JSON.stringify(lend('u1')), headers: { 'content-type': 'text/plain' } }), 400, 'invalid_request', 'Content-Type');
      });
      it('refuses an oversized body with 413 before parsing', async () => {
        const r = await call('POST', '/lend', { raw: `{"pad":"${'x'.repeat(70_000)}"}`, headers: { 'content-type': 'application/json' } });
        expectError(r, 413, 'invalid_request', 'body');
      });
      it('answers insufficient_funds with required and available', async () => {
        const r = await call('POST', '/lend', { body: lend('u1', { amount: '100001' }) });
        expectError(r, 400, 'insufficient_funds');
        expect(insufficientFundsError.safeParse(r.body).success).toBe(true);
        expect(r.body.error.details).toEqual({ required: '100001', available: '100000' });
      });
    });

    describe('POST /borrow and matching', () => {
      it('creates a pending borrow holding its collateral', async () => {
        const r = await call('POST', '/borrow', { body: borrow('b1') });
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ status: 'pending', type: 'borrow', collateral: { asset: 'ETH', amount: '1' }, autoRefinance: false });
        const b = await call('GET', '/sandbox/users/b1/balances');
        expect(b.body.balances.find((x: any) => x.asset === 'ETH').available).toBe('99');
      });
      it('matches at the resting rate and marks both active with matchedAt', async () => {
        const l = await call('POST', '/lend', { body: lend('l1', { rate: 0.04 }) });
        const b = await call('POST', '/borrow', { body: borrow('b1', { rate: 0.06 }) });
        expect(b.body.status).toBe('pending'); // the order as created; matching follows
        for (const id of [l.body.positionId, b.body.positionId]) {
          const p = await call('GET', `/positions/${id}`);
          expect(p.body.status).toBe('active');
          expect(p.body.rate).toBe(0.04);
          expect(p.body.matchedAt).toBe(p.body.createdAt);
        }
        const bal = await call('GET', '/sandbox/users/b1/balances');
        expect(bal.body.balances.find((x: any) => x.asset === 'USDC').available).toBe('101000');
      });
      it('does not match when the rates do not cross', async () => {
        const l = await call('POST', '/lend', { body: lend('l1', { rate: 0.07 }) });
        await call('POST', '/borrow', { body: borrow('b1', { rate: 0.06 }) });
        expect((await call('GET', `/positions/${l.body.positionId}`)).body.status).toBe('pending');
      });
      it('fills across several orders by price then time, with a weighted final rate', async () => {
        const a = await call('POST', '/lend', { body: lend('l1', { amount: '400', rate: 0.05 }) });
        const b = await call('POST', '/lend', { body: lend('l2', { amount: '400', rate: 0.04 }) });
        const c = await call('POST', '/lend', { body: lend('l3', { amount: '400', rate: 0.05 }) });
        const br = await call('POST', '/borrow', { body: borrow('b1', { borrowAmount: '1000', rate: 0.06 }) });
        const status = async (id: string) => (await call('GET', `/positions/${id}`)).body;
        expect((await status(b.body.positionId)).status).toBe('active');
        expect((await status(a.body.positionId)).status).toBe('active');
        const third = await status(c.body.positionId);
        expect(third.status).toBe('pending');
        expect(third.filled).toBe('200');
        const bp = await status(br.body.positionId);
        expect(bp.status).toBe('active');
        expect(bp.rate).toBe(0.046); // (400×0.04 + 400×0.05 + 200×0.05) / 1000
      });
      it('rejects too little collateral with a clear message', async () => {
        const r = await call('POST', '/borrow', { body: borrow('b1', { collateral: { asset: 'ETH', amount: '0.1' } }) });
        expectError(r, 400, 'invalid_request', 'collateral.amount');
        expect(r.body.error.message).toMatch(/minimum ratio 1\.5/);
      });
      it('rejects unsupported assets naming the field', async () => {
        expectError(await call('POST', '/borrow', { body: borrow('b1', { collateral: { asset: 'DOGE', amount: '1' } }) }), 400, 'invalid_request', 'collateral.asset');
        expectError(await call('POST', '/borrow', { body: borrow('b1', { borrowAsset: 'ETH' }) }), 400, 'invalid_request', 'borrowAsset');
      });
      it('answers insufficient_funds for collateral the user lacks', async () => {
        const r = await call('POST', '/borrow', { body: borrow('b1', { collateral: { asset: 'ETH', amount: '150' }, borrowAmount: '1000' }) });
        expectError(r, 400, 'insufficient_funds');
        expect(r.body.error.details).toEqual({ required: '150', available: '100' });
      });
      it('rejects over-precise and malformed borrow amounts', async () => {
        expectError(await call('POST', '/borrow', { body: borrow('b1', { borrowAmount: '1.0000001' }) }), 400, 'invalid_request', 'borrowAmount');
        expectError(await call('POST', '/borrow', { body: borrow('b1', { collateral: { asset: 'ETH', amount: 'x' } }) }), 400, 'invalid_request', 'collateral.amount');
      });
    });

    describe('positions', () => {
      it('GET returns the full position with cbt and interest fields', async () => {
        const l = await call('POST', '/lend', { body: lend('u1') });
        const p = await call('GET', `/positions/${l.body.positionId}`);
        expect(p.status).toBe(200);
        expect(p.body.type).toBe('lend');
        expect(p.body.cbt.tokenAddress).toMatch(/^0x[0-9a-f]{40}$/);
        expect(p.body.accruedInterest).toBe('0');
        const other = await call('POST', '/lend', { body: lend('u2') });
        const p2 = await call('GET', `/positions/${other.body.positionId}`);
        expect(p2.body.cbt.tokenAddress).toBe(p.body.cbt.tokenAddress);
      });
      it('hides another partner’s position as position_not_found', async () => {
        const l = await call('POST', '/lend', { body: lend('u1') });
        expectError(await call('GET', `/positions/${l.body.positionId}`, { key: KEY_B }), 404, 'position_not_found', 'positionId');
        expectError(await call('POST', `/positions/${l.body.positionId}/cancel`, { key: KEY_B }), 404, 'position_not_found');
        const list = await call('GET', '/users/u1/positions', { key: KEY_B });
        expect(list.body.positions).toEqual([]);
      });
      it('answers 404 position_not_found for an unknown id', async () => {
        expectError(await call('GET', '/positions/pos_nope'), 404, 'position_not_found', 'positionId');
      });
      it('cancels a pending order and releases its funds', async () => {
        const l = await call('POST', '/lend', { body: lend('u1') });
        const r = await call('POST', `/positions/${l.body.positionId}/cancel`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ positionId: l.body.positionId, status: 'cancelled', released: '1000' });
        const b = await call('GET', '/sandbox/users/u1/balances');
        expect(b.body.balances.find((x: any) => x.asset === 'USDC')).toMatchObject({ available: '100000', locked: '0' });
        expectError(await call('POST', `/positions/${l.body.positionId}/cancel`), 400, 'invalid_request', 'status');
      });
      it('refuses to cancel an active position', async () => {
        const l = await call('POST', '/lend', { body: lend('l1') });
        await call('POST', '/borrow', { body: borrow('b1') });
        expectError(await call('POST', `/positions/${l.body.positionId}/cancel`), 400, 'invalid_request', 'status');
      });
      it('PATCH sets autoRollover and autoRefinance and answers the position', async () => {
        const l = await call('POST', '/lend', { body: lend('u1') });
        const r = await call('PATCH', `/positions/${l.body.positionId}`, { body: { autoRollover: false, autoRefinance: true } });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ autoRollover: false, autoRefinance: true });
        expectError(await call('PATCH', `/positions/${l.body.positionId}`, { body: {} }), 400, 'invalid_request', 'autoRollover');
        expectError(await call('PATCH', `/positions/${l.body.positionId}`, { body: { autoRollover: 1 } }), 400, 'invalid_request', 'autoRollover');
        expectError(await call('PATCH', '/positions/pos_nope', { body: { autoRollover: true } }), 404, 'position_not_found');
      });
      it('repays a borrow partly, then fully with amount omitted', async () => {
        await call('POST', '/lend', { body: lend('l1') });
        const b = await call('POST', '/borrow', { body: borrow('b1') });
        const id = b.body.positionId;
        const part = await call('POST', `/positions/${id}/repay`, { body: { amount: '400' } });
        expect(part.status).toBe(200);
        expect(part.body).toMatchObject({ repaid: '400', outstanding: '600', status: 'active', collateralReleased: '0' });
        const full = await call('POST', `/positions/${id}/repay`);
        expect(full.body).toMatchObject({ repaid: '600', outstanding: '0', status: 'matured', collateralReleased: '1' });
        expectError(await call('POST', `/positions/${id}/repay`), 400, 'invalid_request', 'status');
      });
      it('refuses repay on lend positions, over the outstanding, and over-precise', async () => {
        const l = await call('POST', '/lend', { body: lend('l1') });
        const b = await call('POST', '/borrow', { body: borrow('b1') });
        expectError(await call('POST', `/positions/${l.body.positionId}/repay`), 400, 'invalid_request', 'positionId');
        expectError(await call('POST', `/positions/${b.body.positionId}/repay`, { body: { amount: '5000' } }), 400, 'invalid_request', 'amount');
        expectError(await call('POST', `/positions/${b.body.positionId}/repay`, { body: { amount: '1.0000001' } }), 400, 'invalid_request', 'amount');
        expectError(await call('POST', `/positions/${b.body.positionId}/repay`, { body: { amount: -1 } }), 400, 'invalid_request', 'amount');
        expectError(await call('POST', '/positions/pos_nope/repay'), 404, 'position_not_found');
      });
      it('refuses repay beyond the available balance with insufficient_funds', async () => {
        await call('POST', '/lend', { body: lend('l1') });
        const b = await call('POST', '/borrow', { body: borrow('b1') });
        await call('POST', '/users/b1/withdraw', { body: { asset: 'USDC', amount: '100900', destination: `0x${'a'.repeat(40)}` } });
        const r = await call('POST', `/positions/${b.body.positionId}/repay`, { body: { amount: '200' } });
        expectError(r, 400, 'insufficient_funds');
        expect(r.body.error.details).toEqual({ required: '200', available: '100' });
      });
    });

    readAndControlCases(() => call);
  });
}
