import { describe, expect, it } from 'vitest';
import { defaultProfile, endpoints } from '../../contract/index.ts';
import type { AdviceSeen, CheckContext } from '../check.ts';
import type { Exchange } from '../../kernel/results.ts';
import { endpointOf, everyAnswerCheck } from './every-answer.ts';

const all = endpoints(defaultProfile);
const x = (method: string, path: string, status: number, body: unknown, keyed = true): Exchange => ({
  method,
  url: `http://t/v1${path}`,
  status,
  requestHeaders: keyed ? { authorization: 'Bearer ck_test_***' } : {},
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: JSON.stringify(body),
  durationMs: 1,
});
const run = async (log: Exchange[]) => {
  const notes: string[] = [];
  const advice: Array<{ a: AdviceSeen; x?: Exchange }> = [];
  const ctx = { profile: defaultProfile, http: { log }, note: (n: string) => notes.push(n), advise: (a: AdviceSeen, ex?: Exchange) => advice.push({ a, x: ex }) } as unknown as CheckContext;
  return { outcome: await everyAnswerCheck(defaultProfile).run(ctx).catch((e: Error) => e), notes, advice };
};

describe('each success answer judged once, where it arrived', () => {
  it('finds the endpoint of an answered request, the shared book path by its key', () => {
    expect(endpointOf(all, x('POST', '/positions/p1/cancel', 200, {}))?.id).toBe('position.cancel');
    expect(endpointOf(all, x('GET', '/positions/p1', 200, {}))?.id).toBe('position.get');
    expect(endpointOf(all, x('GET', '/users/u1/positions?limit=2', 200, {}))?.id).toBe('positions.list');
    expect(endpointOf(all, x('GET', '/markets/USDC/orderbook', 200, {}))?.id).toBe('orderbook.get');
    expect(endpointOf(all, x('GET', '/markets/USDC-30d/orderbook', 200, {}, false))?.id).toBe('public.orderbook');
    expect(endpointOf(all, x('POST', '/sandbox/fund', 200, {}))).toBeUndefined();
    // A key sent to a public endpoint does not make it the keyed /rates.
    expect(endpointOf(all, x('GET', '/analytics/rates?period=30d', 200, {}))?.id).toBe('public.rateSeries');
    expect(endpointOf(all, x('GET', '/markets/rates', 200, {}))?.id).toBe('public.rates');
  });

  it('passes foreign not-shown bodies, fails a spec-shown violation whichever check sent it, and leaves errors alone', async () => {
    const ts = '2026-01-01T00:00:00Z';
    const ok = await run([
      x('POST', '/positions/p1/repay', 200, { paid: '1', left: '0' }),
      x('GET', '/analytics/tvl', 200, { data: { series: [] }, timestamp: ts }, false),
      x('POST', '/webhooks', 201, { ref: 'w1', secret: '***' }),
      x('GET', '/positions/missing', 404, { error: { code: 'position_not_found', message: 'no' } }),
    ]);
    expect(ok.outcome).toMatchObject({ kind: 'pass' });
    expect(ok.notes).toEqual(['3 success answers judged']);
    const bad = await run([x('GET', '/markets', 200, { markets: [{ id: 1 }] }, false)]);
    expect(String((bad.outcome as Error).message)).toMatch(/GET \/v1\/markets → 200, public\.markets/);
  });

  it("advises once per endpoint and belief on a same-named field of another type where the spec shows no body (issue 47's order book)", async () => {
    const book = { asset: 'USDC', maturity: null, lends: [], borrows: [] };
    const r = await run([x('GET', '/markets/USDC/orderbook', 200, book), x('GET', '/markets/DAI/orderbook', 200, book), x('POST', '/borrow', 201, { positionId: 'b1', matchedAt: null })]);
    expect(r.outcome).toMatchObject({ kind: 'pass' });
    expect(r.advice.map(({ a }) => a.requirement)).toEqual(['SHAPE-position', 'SHAPE-position-matchedAt']);
    expect(r.advice[0]!.a.received).toMatch(/and in 1 more answers/);
    expect(r.advice[0]!.x?.url).toMatch(/USDC/);
  });
});
