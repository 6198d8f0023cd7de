import { afterEach, describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import type { Sandbox } from '../app.ts';
import { caller, testSandbox } from '../testing/helpers.ts';

// Where the spec is silent the profile decides: the same sandbox under other choices.

describe('sandbox under other profile choices', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => sb?.close());

  it('clamps an over-max limit, answers nextCursor null on the last page, lists oldest first', async () => {
    sb = testSandbox({ profile: parseProfile({ pagination: { overMax: 'clamp', lastPageCursor: 'null', order: 'created-asc' } }) });
    const call = caller(sb);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      await call('POST', '/sandbox/clock/advance', { body: { seconds: 1 } });
      ids.push((await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '5', rate: 0.09 } })).body.positionId);
    }
    const r = await call('GET', '/users/u/positions?limit=500');
    expect(r.status).toBe(200);
    expect(r.body.positions.map((p: any) => p.positionId)).toEqual(ids);
    expect(r.body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('answers position_not_found for an unseen user when the profile says so', async () => {
    sb = testSandbox({ profile: parseProfile({ errors: { unknownUser: 'position_not_found' } }) });
    const r = await caller(sb)('GET', '/users/ghost/positions');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('position_not_found');
  });

  it('uses the profile’s codes for invalid state and unsupported assets, and its success statuses', async () => {
    sb = testSandbox({
      profile: parseProfile({
        errors: { invalidState: { code: 'invalid_state', status: 409 }, unsupportedAsset: { code: 'unsupported_asset', status: 422 } },
        successStatus: { 'POST /lend': 200 },
      }),
    });
    const call = caller(sb);
    const l = await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '5', rate: 0.09 } });
    expect(l.status).toBe(200);
    await call('POST', `/positions/${l.body.positionId}/cancel`);
    const again = await call('POST', `/positions/${l.body.positionId}/cancel`);
    expect([again.status, again.body.error.code]).toEqual([409, 'invalid_state']);
    const doge = await call('POST', '/lend', { body: { userId: 'u', asset: 'DOGE', amount: '5' } });
    expect([doge.status, doge.body.error.code]).toEqual([422, 'unsupported_asset']);
  });

  it('names markets with the profile’s separator and maturities', async () => {
    sb = testSandbox({ profile: parseProfile({ markets: { maturities: ['7d', '60d'], idSeparator: ':' } }) });
    const call = caller(sb);
    const m = await call('GET', '/markets', { key: null });
    expect(m.body.markets.map((x: any) => x.id)).toContain('USDC:7d');
    expect((await call('GET', '/markets/USDC:60d/orderbook', { key: null })).status).toBe(200);
    expect((await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '5', maturity: '30d' } })).status).toBe(400);
  });
});
