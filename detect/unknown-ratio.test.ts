import { describe, expect, it } from 'vitest';
import { parseProfile } from '../contract/index.ts';
import { startSandboxServer } from '../sandbox/server.ts';
import { detectProfile } from './index.ts';

// Mutator seed 28 (issue 47): ETH is the only collateral against the one borrowable stablecoin,
// so the minimum collateral ratio cannot be read at par. The detected profile once kept the
// default 1.5 and conformance's pledges were refused by the correct target; now it records the
// ratio as unknown (null), with the reason, and what needs it skips.

describe('a collateral ratio detection cannot read', () => {
  it('is recorded as unknown (null) in the profile and its detection record, not as the default', { timeout: 90_000 }, async () => {
    const profile = parseProfile({ assets: { borrow: ['USDT'], collateral: ['ETH', 'USDT'] }, amounts: { minCollateralRatio: '2.97', liquidationRatio: '1.33' } });
    const server = await startSandboxServer({ profile, controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale' });
      expect(d.options['amounts.minCollateralRatio']).toMatchObject({ detected: false, value: null, reason: expect.stringMatching(/no second stablecoin .*unknown \(null\)/) });
      expect((d.profile.amounts as Record<string, unknown>).minCollateralRatio).toBeNull();
      expect(d.merged.amounts.minCollateralRatio).toBeNull();
      // What a borrow needs is read instead: collateral per unit borrowed, at or above the target's
      // 2.97 / 3000 (the default ETH price) and within a rung (2.5×) of it.
      const taken = d.merged.amounts.pledgeTaken['ETH/USDT'];
      expect(d.options['amounts.pledgeTaken']).toMatchObject({ detected: true });
      expect(Number(taken)).toBeGreaterThanOrEqual(2.97 / 3000);
      expect(Number(taken)).toBeLessThan((2.5 * 2.97) / 3000);
    } finally {
      await server.close();
    }
  });
});
