import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import type { AdviceSeen, CheckContext } from '../check.ts';
import type { Exchange } from '../../kernel/results.ts';
import { AnswerRules } from '../answer-rules.ts';
import { everyAnswerCheck } from './every-answer.ts';

// Answers as the HTTP client hands them over: the exchange names the endpoint its caller called
// (ctx.call), and the body is the whole text, whatever the log keeps of it.
const answer = (endpoint: string | undefined, method: string, path: string, status: number, body: unknown, keyed = true) => {
  const text = JSON.stringify(body);
  const exchange: Exchange = {
    method,
    url: `http://t/v1${path}`,
    status,
    requestHeaders: keyed ? { authorization: 'Bearer ck_test_***' } : {},
    responseHeaders: { 'content-type': 'application/json' },
    // The log's clip of a long body: never what is judged.
    responseBody: text.length > 4096 ? `${text.slice(0, 4096)}…(${text.length} chars)` : text,
    durationMs: 1,
    ...(endpoint ? { endpoint } : {}),
  };
  return { status, headers: { 'content-type': 'application/json' }, json: body, text, exchange };
};
type Answer = ReturnType<typeof answer>;

const run = async (replies: Answer[], check = 'some.check') => {
  const answers = new AnswerRules(defaultProfile);
  for (const r of replies) answers.judge(r, check);
  const notes: string[] = [];
  const advice: Array<{ a: AdviceSeen; x?: Exchange }> = [];
  const ctx = { profile: defaultProfile, answers, note: (n: string) => notes.push(n), advise: (a: AdviceSeen, ex?: Exchange) => advice.push({ a, x: ex }) } as unknown as CheckContext;
  return { outcome: await everyAnswerCheck(defaultProfile).run(ctx).catch((e: Error) => e), notes, advice };
};

const position = (i: number) => ({ positionId: `pos_${i}`, status: 'pending', type: 'lend', asset: 'USDC', amount: '100.00', rate: 0.05, maturity: '2026-12-31T00:00:00Z' });

describe('each success answer judged once, where it arrived, as the endpoint its caller named', () => {
  it('passes foreign not-shown bodies, fails a spec-shown violation naming the check that sent it, and leaves errors and unnamed requests alone', async () => {
    const ts = '2026-01-01T00:00:00Z';
    const ok = await run([
      answer('position.repay', 'POST', '/positions/p1/repay', 200, { paid: '1', left: '0' }),
      answer('public.tvl', 'GET', '/analytics/tvl', 200, { data: { series: [] }, timestamp: ts }, false),
      answer('webhooks.create', 'POST', '/webhooks', 201, { ref: 'w1', secret: 'whsec_abc' }),
      answer('position.get', 'GET', '/positions/missing', 404, { error: { code: 'position_not_found', message: 'no' } }),
      // No endpoint named: a probe of a path that is no endpoint, whatever its URL looks like.
      answer(undefined, 'GET', '/markets', 200, { markets: [{ id: 1 }] }, false),
      // Another method on an endpoint's path (a 405 probe the target took): no call of that endpoint.
      answer('public.markets', 'DELETE', '/markets', 200, { markets: [{ id: 1 }] }, false),
    ]);
    expect(ok.outcome).toMatchObject({ kind: 'pass' });
    expect(ok.notes).toEqual(['3 success answers judged as they arrived, each whole']);
    const bad = await run([answer('public.markets', 'GET', '/markets', 200, { markets: [{ id: 1 }] }, false)], 'endpoint.markets');
    expect(String((bad.outcome as Error).message)).toMatch(/GET \/v1\/markets → 200, public\.markets, sent by endpoint\.markets/);
  });

  it('judges a body over 4 KiB like any other: the whole of it, not the log\'s clip (issue 49)', async () => {
    const items = Array.from({ length: 100 }, (_, i) => position(i));
    const long = { positions: items, nextCursor: 'c2', hasMore: true };
    expect(JSON.stringify(long).length).toBeGreaterThan(4096);
    const clean = await run([answer('positions.list', 'GET', '/users/u1/positions?limit=100', 200, long)]);
    expect(clean.outcome).toMatchObject({ kind: 'pass' });
    expect(clean.notes).toEqual(['1 success answers judged as they arrived, each whole']);
    // The 100th item, far past the first 4 KiB, with its amount as a number.
    const broken = { ...long, positions: [...items.slice(0, 99), { ...position(99), amount: 100 }] };
    const bad = await run([answer('positions.list', 'GET', '/users/u1/positions?limit=100', 200, broken)]);
    expect(bad.outcome).toBeInstanceOf(Error);
    expect(String((bad.outcome as Error).message)).toMatch(/positions\.list/);
    expect(String((bad.outcome as Error).message)).toMatch(/positions\.99\.amount|positions\[99\]\.amount|amount/);
  });

  it('skips, saying why, when no success answer came back', async () => {
    const r = await run([answer('position.get', 'GET', '/positions/p', 404, { error: { code: 'position_not_found', message: 'no' } })]);
    expect(r.outcome).toBeInstanceOf(Error);
    expect(String((r.outcome as Error).message)).toMatch(/no success answer to an endpoint of the table came back/);
  });

  it("advises once per endpoint and belief on a same-named field of another type where the spec shows no body (issue 47's order book)", async () => {
    const book = { asset: 'USDC', maturity: null, lends: [], borrows: [] };
    const r = await run([
      answer('orderbook.get', 'GET', '/markets/USDC/orderbook', 200, book),
      answer('orderbook.get', 'GET', '/markets/DAI/orderbook', 200, book),
      answer('borrow.create', 'POST', '/borrow', 201, { positionId: 'b1', matchedAt: null }),
    ]);
    expect(r.outcome).toMatchObject({ kind: 'pass' });
    expect(r.advice.map(({ a }) => a.requirement)).toEqual(['SHAPE-position', 'SHAPE-position-matchedAt']);
    expect(r.advice[0]!.a.received).toMatch(/and in 1 more answers/);
    expect(r.advice[0]!.x?.url).toMatch(/USDC/);
  });
});
