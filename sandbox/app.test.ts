import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endpoints, eventEnvelope, parseProfile, positionMatchedData, shapes } from '../contract/index.ts';
import { TestClock } from './engine/clock.ts';
import { describeEndpoints } from './testing/endpoints/endpoints.suite.ts';
import { RESOLVERS } from './endpoints/resolvers.ts';
import { json } from './answer/answer.ts';
import { defaultPlugins, type SandboxPlugin } from './plugins.ts';
import { caller, KEY_A, START_MS, testSandbox } from './testing/helpers.ts';

describeEndpoints('in-process', async () => {
  const sb = testSandbox();
  return { call: caller(sb), close: () => sb.close() };
});

describe('sandbox core (in-process only)', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  it('writes one outbox row per event, each envelope matching the contract shapes', async () => {
    const sb = testSandbox({ liquidity: { enabled: true, delaySeconds: 5 }, withdrawalDelaySeconds: 10 });
    open.push(sb);
    const call = caller(sb);
    await call('POST', '/lend', { body: { userId: 'l1', asset: 'USDC', amount: '1000', rate: 0.05, maturity: '30d' } });
    await call('POST', '/borrow', { body: { userId: 'b1', collateral: { asset: 'ETH', amount: '2' }, borrowAsset: 'USDC', borrowAmount: '1000', rate: 0.05, maturity: '30d' } });
    await call('POST', '/borrow', { body: { userId: 'b2', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '1000', rate: 0.07, maturity: '90d' } });
    await call('POST', '/users/l1/withdraw', { body: { asset: 'DAI', amount: '1', destination: `0x${'b'.repeat(40)}` } });
    await call('POST', '/sandbox/clock/advance', { body: { seconds: 31 * 86400 } });
    await call('POST', '/sandbox/oracle', { body: { asset: 'ETH', priceUsd: '1000' } });
    const rows = sb.db.prepare('SELECT * FROM outbox_events ORDER BY seq').all() as Array<{ type: string; payload: string; partner_id: string }>;
    const types = new Set(rows.map((r) => r.type));
    for (const t of ['position.created', 'position.matched', 'position.matured', 'position.rolled', 'position.liquidated', 'withdrawal.completed']) {
      expect(types, t).toContain(t);
    }
    for (const r of rows) {
      const env = JSON.parse(r.payload);
      expect(eventEnvelope.safeParse(env).success).toBe(true);
      expect(env.id).toMatch(/^evt_/);
      const shape = shapes.eventDataShapes[r.type as keyof typeof shapes.eventDataShapes];
      expect(shape.safeParse(env.data).success, `${r.type}: ${JSON.stringify(env.data)}`).toBe(true);
      if (r.type === 'position.matched') expect(positionMatchedData.safeParse(env.data).success).toBe(true);
      expect(r.partner_id).toBe('partner_a');
    }
  });

  it('lets the built-in liquidity provider fill a lone order after its delay', async () => {
    const sb = testSandbox({ liquidity: { enabled: true, delaySeconds: 5 } });
    open.push(sb);
    const call = caller(sb);
    const l = await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '10', rate: 0.05 } });
    await call('POST', '/sandbox/clock/advance', { body: { seconds: 4 } });
    expect((await call('GET', `/positions/${l.body.positionId}`)).body.status).toBe('pending');
    await call('POST', '/sandbox/clock/advance', { body: { seconds: 1 } });
    const p = await call('GET', `/positions/${l.body.positionId}`);
    expect(p.body).toMatchObject({ status: 'active', rate: 0.05, matchedAt: new Date(START_MS + 5000).toISOString() });
  });

  it('turns an unexpected fault into 500 internal_error without internals', async () => {
    const boom: SandboxPlugin = { name: 'boom', routes: () => [{ method: 'GET', path: '/v1/boom', handle: () => { throw new Error('secret table xyz'); } }] };
    const sb = testSandbox({ plugins: [boom] });
    open.push(sb);
    const errors: unknown[] = [];
    const orig = console.error;
    console.error = (...a: unknown[]) => errors.push(a);
    try {
      const r = await caller(sb)('GET', '/boom');
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: { code: 'internal_error', message: 'internal error' } });
    } finally {
      console.error = orig;
    }
    expect(errors.length).toBe(1);
  });

  it('runs plugin stages before auth, on the core\'s routes and plugin routes alike, and plugin routes after it', async () => {
    const seen: string[] = [];
    const p: SandboxPlugin = {
      name: 'probe',
      stage: () => (req, next) => {
        seen.push(`mw ${req.path}`);
        return next();
      },
      routes: () => [{ method: 'GET', path: '/v1/probe', handle: ({ partner }) => json({ partner: partner?.partnerId ?? null }) }],
    };
    const sb = testSandbox({ plugins: [p] });
    open.push(sb);
    const call = caller(sb);
    expect((await call('GET', '/rates', { key: 'ck_test_bad' })).status).toBe(401);
    expect(seen).toContain('mw /v1/rates');
    expect((await call('GET', '/probe')).body).toEqual({ partner: null });
    expect(seen).toContain('mw /v1/probe');
    // A body refused for its size still passes through the plugins' stages (rate-limit headers).
    const big = await call('POST', '/lend', { raw: 'x'.repeat(70_000), headers: { 'content-type': 'application/json', 'content-length': '70000' } });
    expect(big.status).toBe(413);
    expect(seen).toContain('mw /v1/lend');
  });

  it('keeps every write and the business clock across a restart on the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendcheck-sb-'));
    try {
      const dbPath = join(dir, 'sb.db');
      const a = testSandbox({ dbPath });
      const call = caller(a);
      const l = await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '10', rate: 0.08 } });
      await call('POST', '/sandbox/clock/advance', { body: { seconds: 86400 } });
      await a.close();
      const b = testSandbox({ dbPath, clock: undefined, timeScale: 1 });
      open.push(b);
      const call2 = caller(b);
      expect((await call2('GET', `/positions/${l.body.positionId}`)).body.amount).toBe('10');
      expect(b.clock.now()).toBeGreaterThanOrEqual(START_MS + 86_400_000);
      // The rebuilt book still matches the resting order.
      await call2('POST', '/borrow', { body: { userId: 'b', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '10', rate: 0.09 } });
      expect((await call2('GET', `/positions/${l.body.positionId}`)).body.status).toBe('active');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the same body for a key of another tier of the same partner', async () => {
    const sb = testSandbox();
    open.push(sb);
    const call = caller(sb);
    const l = await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '10', rate: 0.08 } });
    const r = await call('GET', `/positions/${l.body.positionId}`, { key: 'ck_test_partner_a_scale' });
    expect(r.status).toBe(200);
    expect(KEY_A).not.toBe('ck_test_partner_a_scale');
  });

  it('uses a clock it is given', async () => {
    const clock = new TestClock({ startMs: START_MS, realNow: () => 0 });
    const sb = testSandbox({ clock });
    open.push(sb);
    clock.advance(1000);
    expect((await caller(sb)('GET', '/sandbox/clock')).body.now).toBe(new Date(START_MS + 1000).toISOString());
  });

  it('serves every endpoint of the contract table once: by a core resolver or by the default plugin that declares it', () => {
    for (const listAndDelete of [true, false]) {
      const profile = parseProfile({ webhooks: { listAndDelete } });
      const declared = defaultPlugins().flatMap((p) => [...(p.endpoints ?? [])]);
      for (const e of endpoints(profile)) {
        const servers = (e.id in RESOLVERS ? 1 : 0) + declared.filter((id) => id === e.id).length;
        expect(servers, `${e.id} (listAndDelete ${listAndDelete})`).toBe(1);
      }
    }
  });

  it('leaves an endpoint a plugin declares to that plugin', async () => {
    const claim: SandboxPlugin = {
      name: 'claims-rates',
      endpoints: ['public.rates'],
      routes: () => [{ endpoint: 'public.rates', handle: () => json({ from: 'plugin' }) }],
    };
    const sb = testSandbox({ plugins: [claim] });
    open.push(sb);
    expect((await caller(sb)('GET', '/markets/rates', { key: null })).body).toEqual({ from: 'plugin' });
    const without = testSandbox({ plugins: [{ name: 'claims-only', endpoints: ['public.rates'] }] });
    open.push(without);
    expect((await caller(without)('GET', '/markets/rates', { key: null })).status, 'the core left the declared route to the plugin').not.toBe(200);
  });
});
