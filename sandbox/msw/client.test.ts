import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { defineProfile } from '../../contract/profile-define.ts';
import { LendcheckApiError } from '../../contract/client.ts';
import type { CreateLendResponse, Position } from '../../contract/endpoint-bodies.ts';
import { createMswSandbox, type MswSandbox } from './index.ts';

// The partner entries over the msw way: the typed client reaches the sandbox only through msw
// (so a test that forgets server.listen() fails), a partial profile is merged over the defaults
// as the CLI does, and key() hands out a Growth key.

let sb: MswSandbox | undefined;
let server: ReturnType<typeof setupServer> | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
  await sb?.close();
  sb = undefined;
});
const listening = (s: MswSandbox) => {
  sb = s;
  server = setupServer(...s.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return s;
};

describe('sandbox.client(): lendcheck/client on the msw sandbox', () => {
  it('places, funds, reads and withdraws with typed bodies, every call through msw', async () => {
    const s = listening(createMswSandbox());
    const api = s.client();
    const placed: CreateLendResponse = await api.lend({ userId: 'u1', asset: 'USDC', amount: '100', maturity: '30d' });
    expect(placed.status).toBe('pending');
    const read: Position = await api.position(placed.positionId);
    expect(read.positionId).toBe(placed.positionId);
    expect((await api.positions('u1')).positions.map((p) => p.positionId)).toEqual([placed.positionId]);
    expect((await api.markets()).markets.length).toBeGreaterThan(0);
    const report = await s.partnerReport();
    expect(report.exchanges).toBeGreaterThanOrEqual(3);
    expect(report.findings).toEqual([]);
  });

  it('throws LendcheckApiError with the spec error object on a 4xx', async () => {
    const api = listening(createMswSandbox()).client();
    const e = await api.lend({ userId: 'u1', asset: 'USDC', amount: 'ten' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LendcheckApiError);
    expect((e as LendcheckApiError).status).toBe(400);
    expect((e as LendcheckApiError).message).toMatch(/POST \/lend: 400 invalid_request/);
  });

  it('fails when the msw server is not listening: nothing reaches the sandbox', async () => {
    sb = createMswSandbox();
    await expect(sb.client().lend({ userId: 'u1', asset: 'USDC', amount: '100' })).rejects.toThrow();
    expect((await sb.partnerReport()).exchanges).toBe(0);
  });
});

describe('createMswSandbox({ profile }) and defineProfile', () => {
  it('takes a partial profile, merged over the defaults as --profile FILE is', async () => {
    const s = listening(createMswSandbox({ profile: { markets: { idSeparator: ':' } } }));
    const ids = (await s.client().markets()).markets.map((m) => m.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^[A-Z]+:\d+d$/);
  });

  it('defineProfile merges one field and keeps every default; an invalid field is named', () => {
    const p = defineProfile({ limits: { defaultTier: 'scale' } });
    expect(p.limits.defaultTier).toBe('scale');
    expect(p.markets.maturities).toEqual(defineProfile().markets.maturities);
    expect(() => defineProfile({ markets: { idSeparator: 5 as unknown as string } })).toThrow(/invalid profile: markets\.idSeparator/);
    expect(() => createMswSandbox({ profile: { ratesPath: 'no-slash' } })).toThrow(/ratesPath/);
  });
});

describe('sandbox.key()', () => {
  it('defaults to a Growth key, and still honours partner and tier', () => {
    sb = createMswSandbox();
    expect(sb.key()).toBe('ck_test_partner_a_growth');
    expect(sb.key('partner_b')).toBe('ck_test_partner_b_growth');
    expect(sb.key('partner_a', 'starter')).toBe('ck_test_partner_a_starter');
    const only = createMswSandbox({ keys: [{ key: 'ck_test_solo', partnerId: 'solo', tier: 'starter' }] });
    expect(only.key()).toBe('ck_test_solo');
    return only.close();
  });
});
