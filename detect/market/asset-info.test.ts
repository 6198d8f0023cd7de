import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { withPlaces } from './decimals.ts';
import { detectProfile } from '../index.ts';
import { lentPrices } from './lent-prices.ts';
import type { Probe } from '../probe.ts';
import type { Reply } from '../../conformance/http.ts';
import { sameValue } from '../options.ts';

// assets.info against a target whose decimals and prices are neither the tokens' usual ones
// nor on the search's first grid: the usual values must be refused, a round price snapped
// to, a price with more digits than the search affords given as a low-confidence lower
// bound, and a run with the default budget must skip the searches and say why.

const info = {
  USDC: { decimals: 6, oraclePriceUsd: '1' },
  USDT: { decimals: 2, oraclePriceUsd: '1' },
  DAI: { decimals: 18, oraclePriceUsd: '1' },
  ETH: { decimals: 4, oraclePriceUsd: '1234.5678' },
  WBTC: { decimals: 8, oraclePriceUsd: '42' },
};

describe('assets.info detection', () => {
  it('reads decimals and collateral prices that differ from the usual ones, and says how sure it is', { timeout: 60_000 }, async () => {
    const server = await startSandboxServer({ profile: parseProfile({ assets: { info } }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 250 });
      const rec = d.options['assets.info']!;
      if (!rec.detected) throw new Error(`assets.info not detected: ${rec.reason}`);
      const got = rec.value as typeof info;
      expect(sameValue(got, defaultProfile.assets.info)).toBe(false);
      expect(got.WBTC).toEqual({ decimals: 8, oraclePriceUsd: '42' });
      expect(got.USDT.decimals).toBe(2);
      expect(got.ETH.decimals).toBe(4);
      // 1234.5678 needs more digits than the per-asset cap buys: a lower bound, said to be one.
      const eth = Number(got.ETH.oraclePriceUsd);
      expect(eth).toBeLessThanOrEqual(1234.5678);
      expect(eth).toBeGreaterThanOrEqual(1234);
      expect(rec.confidence).toBe('low');
      expect(rec.note).toMatch(/ETH: the price is in \[1234[.\d]*, 123[45][.\d]*\) USD and no round value/);
      expect(rec.note).toMatch(/WBTC against .* one unit less was refused/);
    } finally {
      await server.close();
    }
  });

  it('reads them within a Starter key\'s budget (100, given or the default): they come before what only refines notes', { timeout: 60_000 }, async () => {
    const server = await startSandboxServer({ profile: defaultProfile, controls: false, validateResponses: false });
    try {
      const runs = await Promise.all([
        detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 100 }),
        // A Starter key's bucket (100) shows no room past the default.
        detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_starter' }),
      ]);
      for (const d of runs) {
        expect(d.maxRequests).toBe(100);
        expect(d.budgetNote).toBeUndefined();
        expect(d.requests).toBeLessThanOrEqual(100);
        // Every borrow a check sends is priced by them: unknown, a Starter run skipped some twenty
        // checks, so they are searched right after the markets, assets and amount bounds (index.ts).
        expect(d.options['amounts.minCollateralRatio']).toMatchObject({ detected: true });
        expect(d.options['assets.info']).toMatchObject({ detected: true });
        expect(d.merged.assets.info?.ETH?.oraclePriceUsd).toBeDefined();
      }
    } finally {
      await server.close();
    }
  });

  it('with no budget given, a key with room reads them: minimal-sandbox\'s WBTC has 6 places, not the usual 8', { timeout: 60_000 }, async () => {
    const profile = parseProfile(JSON.parse(readFileSync('examples/profiles/minimal-sandbox.json', 'utf8')));
    const server = await startSandboxServer({ profile, controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_growth' });
      expect(d.maxRequests).toBeGreaterThan(100);
      expect(d.budgetNote).toMatch(/^raised from 100 to \d+: the key's X-RateLimit-Remaining was \d+ after \d+ requests/);
      expect(d.requests).toBeLessThanOrEqual(d.maxRequests);
      const rec = d.options['assets.info']!;
      if (!rec.detected) throw new Error(`assets.info not detected: ${rec.reason}`);
      expect(sameValue(rec.value, profile.assets.info)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('reads lent stablecoins\' prices from the TVL: confirms 1 USD, or shows another price', async () => {
    const target = (lent: Record<string, string>, tvl: string) => {
      // Answered by the endpoint each call names (Probe.call), whatever order they come in.
      const replies: Record<string, unknown> = {
        'public.markets': { markets: Object.entries(lent).map(([asset, totalLent]) => ({ id: `${asset}-30d`, asset, maturity: '30d', totalLent })) },
        'public.tvl': { metric: 'tvl', points: [{ timestamp: 'x', value: '0' }, { timestamp: 'y', value: tvl }] },
      };
      return { call: (id: string) => Promise.resolve({ status: replies[id] ? 200 : 404, json: replies[id] } as unknown as Reply) } as unknown as Probe;
    };
    const stables = ['USDC', 'USDT', 'DAI'];
    expect(await lentPrices(target({ USDC: '150.805476', USDT: '30.011505', DAI: '0' }, '180.81'), stables)).toMatchObject({ confirmed: ['USDC', 'USDT'] });
    expect(await lentPrices(target({ USDC: '100', USDT: '0' }, '102.00'), stables)).toMatchObject({ confirmed: [], price: { asset: 'USDC', value: '1.02' } });
    expect(await lentPrices(target({ USDC: '100', USDT: '50' }, '160'), stables)).toMatchObject({ confirmed: [], note: expect.stringMatching(/are off/) });
    // Nothing lent, or a non-stable lent: the TVL shows no stablecoin's price.
    expect(await lentPrices(target({ USDC: '0' }, '0'), stables)).toBeUndefined();
    expect(await lentPrices(target({ ETH: '1' }, '3000'), stables)).toBeUndefined();
  });

  it('writes amounts with exactly d places', () => {
    expect(withPlaces('10', 0)).toBe('10');
    expect(withPlaces('10', 1)).toBe('10.1');
    expect(withPlaces('1000000', 4)).toBe('1000000.0001');
  });
});
