import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from './index.ts';
import { endpointById, endpointTable, routeOf, routeOfRequest } from './endpoint-table.ts';
import { NoSuchEndpoint, resolveCall } from './call.ts';

describe('the endpoint table, by id and by route', () => {
  it('is built once per profile object', () => {
    expect(endpointTable(defaultProfile)).toBe(endpointTable(defaultProfile));
    expect(endpointById(defaultProfile, 'position.get')?.path).toBe('/positions/{positionId}');
  });

  it('resolves a call by name, parameters encoded as one segment each; an endpoint the profile lacks is named', () => {
    expect(resolveCall(defaultProfile, 'position.cancel', { positionId: 'a/b c' })).toEqual({ endpoint: 'position.cancel', method: 'POST', path: '/positions/a%2Fb%20c/cancel', access: 'key' });
    expect(resolveCall(parseProfile({ ratesPath: '/rates-elsewhere' }), 'rates.get').path).toBe('/rates-elsewhere');
    expect(() => resolveCall(parseProfile({ ratesPath: null }), 'rates.get')).toThrow(NoSuchEndpoint);
    expect(() => resolveCall(defaultProfile, 'position.get', {})).toThrow(/no positionId/);
  });

  it('routes a request in front of a target by segments: most literal first, the shared book path by its key', () => {
    expect(routeOf(defaultProfile, 'POST', '/positions/p1/cancel', true)?.id).toBe('position.cancel');
    expect(routeOf(defaultProfile, 'GET', '/positions/p1', true)?.id).toBe('position.get');
    expect(routeOf(defaultProfile, 'GET', '/users/u1/positions?limit=2', true)?.id).toBe('positions.list');
    expect(routeOf(defaultProfile, 'GET', '/markets/rates', false)?.id).toBe('public.rates');
    expect(routeOf(defaultProfile, 'GET', '/analytics/rates', false)?.id).toBe('public.rateSeries');
    expect(routeOf(defaultProfile, 'GET', '/markets/USDC/orderbook', true)?.id).toBe('orderbook.get');
    expect(routeOf(defaultProfile, 'GET', '/markets/USDC-30d/orderbook', false)?.id).toBe('public.orderbook');
    expect(routeOf(defaultProfile, 'GET', '/positions/p1/', true)).toBeUndefined();
    expect(routeOf(defaultProfile, 'DELETE', '/lend', true)).toBeUndefined();
    const req = new Request('http://t/v1/users/u1/withdraw', { method: 'POST', headers: { authorization: 'Bearer k' } });
    expect(routeOfRequest(defaultProfile, req)?.id).toBe('user.withdraw');
    expect(routeOfRequest(defaultProfile, new Request('http://t/metrics'))).toBeUndefined();
  });
});
