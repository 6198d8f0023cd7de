import { describe, expect, it } from 'vitest';
import { parseProfile } from '../contract/index.ts';
import { serveWrapped } from '../conformance/embedded.ts';
import { detectProfile } from './index.ts';

// Issue 47: the assets' prices and decimals and the analytics periods, where detection cannot
// read them, are recorded as unknown (null) with the reason, never as the sandbox's defaults.
// The target here offers its analytics only over an ISO 8601 period (P30D), none of the `<n>d`
// forms detection tries, and lends WBTC as a borrowable asset it takes no collateral of, whose
// price detection has no way to read.

const iso = (req: Request, next: (r: Request) => Promise<Response>) => {
  const u = new URL(req.url);
  if (!u.pathname.endsWith('/analytics/tvl') || u.searchParams.get('period') === 'P30D') return next(req);
  return Promise.resolve(Response.json({ error: { code: 'invalid_request', message: 'period: must be an ISO 8601 duration such as P30D' } }, { status: 400 }));
};

describe('market data detection cannot read', () => {
  it('is recorded as unknown (null) in the profile and its detection record', { timeout: 120_000 }, async () => {
    const profile = parseProfile({ assets: { borrow: ['USDC', 'WBTC'], collateral: ['ETH', 'USDC', 'USDT'] } });
    const t = await serveWrapped(iso, { profile, controls: false });
    try {
      const d = await detectProfile({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2 });
      for (const opt of ['assets.info', 'markets.periods', 'markets.defaultPeriod']) {
        expect(d.options[opt], opt).toMatchObject({ detected: false, value: null, reason: expect.stringMatching(/unknown \(null\): the checks that need it skip naming it/) });
      }
      expect(d.options['assets.info']).toMatchObject({ reason: expect.stringMatching(/WBTC is borrowable only/) });
      expect(d.merged.assets.info).toBeNull();
      expect(d.merged.markets.periods).toBeNull();
      expect(d.merged.markets.defaultPeriod).toBeNull();
      // Read where they can be: the ratio at par, and the asset lists.
      expect(d.merged.amounts.minCollateralRatio).toBe('1.5');
      expect(d.merged.assets.borrow).toEqual(['USDC', 'WBTC']);
    } finally {
      await t.close();
    }
  });
});
