import { afterAll, describe, expect, it } from 'vitest';
import { caller, testSandbox } from '../testing/helpers.ts';

// The order-book path is shared (profile.orderbookPath 'shared-by-auth') and the OpenAPI
// document writes it once with a segment that is an asset or a market id, so a keyed
// request may name either.
describe('shared order-book path', () => {
  const sb = testSandbox();
  const call = caller(sb);
  afterAll(() => sb.close());

  it('with a key, a market id reads as the asset at that maturity', async () => {
    const r = await call('GET', '/markets/USDC-30d/orderbook');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ asset: 'USDC', maturity: '30d', lends: [], borrows: [] });
  });

  it('with a key, a market id and another maturity is not found', async () => {
    const r = await call('GET', '/markets/USDC-30d/orderbook?maturity=90d');
    expect(r.status).toBe(404);
    expect(r.body.error.message).toMatch(/^maturity: /);
  });

  it('without a key, an asset is no market', async () => {
    expect((await call('GET', '/markets/USDC/orderbook', { key: null })).status).toBe(404);
    expect((await call('GET', '/markets/USDC-30d/orderbook', { key: null })).status).toBe(200);
  });

  it('with a key, an unknown segment is still an unsupported asset', async () => {
    expect((await call('GET', '/markets/XYZ/orderbook')).status).toBe(400);
  });
});
