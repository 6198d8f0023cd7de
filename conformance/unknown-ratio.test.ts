import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from '../contract/index.ts';
import { mutatedChoices } from '../sandbox/choices/mutate-profile.ts';
import { runChecks } from './runner.ts';
import { withServed } from './testing/served.ts';

// Mutator seed 28 (issue 47): a minimum collateral ratio of 2.97 with ETH the only collateral
// against the one borrowable stablecoin, so detection cannot read it at par. The detected
// profile records it as unknown (null); the checks that pledge collateral skip naming the
// option instead of pledging the default's 1.5 × 2 at the default ETH price (3000, the target's
// is 2500: 250 USD for 100 borrowed, under the 297 required) and failing the correct target's refusal.

const CHECKS = ['endpoint.borrow.create', 'concurrency.borrow-overcommit'];

function run(ratio: string | null, pledgeTaken: Record<string, string> = {}) {
  const choices = mutatedChoices(28);
  return withServed({ profile: parseProfile(choices), controls: false }, async (t) => {
    // As detection leaves it: ETH's price not read (it is read through the ratio), so the default's.
    const profile = parseProfile({ ...choices, assets: { ...choices.assets, info: defaultProfile.assets.info }, amounts: { ...choices.amounts, minCollateralRatio: ratio, pledgeTaken } });
    return (await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile, only: CHECKS })).checks;
  });
}

describe('seed 28: a collateral ratio detection could not read', () => {
  it('skips the checks that pledge collateral, naming amounts.minCollateralRatio', async () => {
    const checks = await run(null);
    expect(checks.map((c) => c.id).sort()).toEqual([...CHECKS].sort());
    for (const c of checks) {
      expect(c.status, `${c.id}: ${c.message}`).toBe('skipped');
      expect(c.message).toMatch(/amounts\.minCollateralRatio, which is unknown/);
    }
  }, 90_000);

  it('pledges what detection saw taken for the pair (amounts.pledgeTaken), and passes them', async () => {
    // 0.002 ETH per USDT: the rung of detection's ladder above the target's 2.97 / 2500 (0.001188).
    const checks = await run(null, { 'ETH/USDT': '0.002' });
    for (const c of checks) expect(c.status, `${c.id}: ${c.message}`).toBe('passed');
  }, 90_000);

  it('runs and passes them where the profile gives the target\'s ratio', async () => {
    const checks = await run('2.97');
    for (const c of checks) expect(c.status, `${c.id}: ${c.message}`).toBe('passed');
  }, 90_000);
});
