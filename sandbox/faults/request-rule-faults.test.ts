import { afterEach, describe, expect, it } from 'vitest';
import { caller, testSandbox } from '../testing/helpers.ts';
import type { Sandbox } from '../app.ts';

// The three request-rule faults of issue 51 at the sandbox's door, each beside the clean
// answer: conformance's proof (errors.invalid.lend, orderbook.depth, pagination.edges) runs
// them through the CLI as a user does (bench/neutrality/faults.ts).

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});
const start = (fault?: string) => caller((sb = testSandbox({ validateResponses: false, ...(fault ? { faults: [{ name: fault }] } : {}) })));
const lend = (over: Record<string, unknown> = {}) => ({ userId: 'u1', asset: 'USDC', amount: '10', rate: 0.5, maturity: '30d', ...over });

describe('lend-asset-from-collateral', () => {
  it('clean: a lend in ETH is refused naming asset; with the fault it becomes a position, other assets still refused', async () => {
    let call = start();
    const clean = await call('POST', '/lend', { body: lend({ asset: 'ETH' }) });
    expect(clean.status).toBe(400);
    expect(clean.body.error.message).toMatch(/asset/);
    await sb!.close();
    call = start('lend-asset-from-collateral');
    const bad = await call('POST', '/lend', { body: lend({ asset: 'ETH' }) });
    expect(bad.status).toBe(201);
    expect(bad.body.asset).toBe('ETH');
    expect((await call('POST', '/lend', { body: lend({ asset: 'BTCX' }) })).status).toBe(400);
    expect((await call('POST', '/lend', { body: lend({ asset: 'ETH', amount: 'x' }) })).status).toBe(400);
    expect((await call('POST', '/lend', { body: lend() })).status).toBe(201);
  });
});

describe('depth-ignored-below-default', () => {
  const levels = async (fault?: string) => {
    const call = start(fault);
    for (const rate of [0.5, 0.51, 0.52]) expect((await call('POST', '/lend', { body: lend({ rate }) })).status).toBe(201);
    const one = await call('GET', '/markets/USDC/orderbook?maturity=30d&depth=1');
    return one.body.lends.length as number;
  };
  it('clean: depth=1 gives one level of three; with the fault, all three', async () => {
    expect(await levels()).toBe(1);
    await sb!.close();
    expect(await levels('depth-ignored-below-default')).toBe(3);
  });
});

describe('hasmore-on-full-last-page', () => {
  const walk = async (fault?: string) => {
    const call = start(fault);
    for (let i = 0; i < 4; i++) expect((await call('POST', '/lend', { body: lend() })).status).toBe(201);
    const pages: Array<{ n: number; hasMore: boolean }> = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const r = await call('GET', `/users/u1/positions?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      pages.push({ n: r.body.positions.length, hasMore: r.body.hasMore });
      if (!r.body.hasMore) break;
      cursor = r.body.nextCursor;
    }
    return pages;
  };
  it('clean: 4 items in pages of 2 end on a full page with hasMore false; with the fault an empty page follows', async () => {
    expect(await walk()).toEqual([{ n: 2, hasMore: true }, { n: 2, hasMore: false }]);
    await sb!.close();
    expect(await walk('hasmore-on-full-last-page')).toEqual([{ n: 2, hasMore: true }, { n: 2, hasMore: true }, { n: 0, hasMore: false }]);
  });
});
