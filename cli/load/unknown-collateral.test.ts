import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from '../../contract/index.ts';
import { scenarioEnv } from './env.ts';
import { pledgeOf, unknownCollateralReason } from './unknown-collateral.ts';

// The borrowing scenarios under a detected profile that knows no pledge (issue 47, mutator seed
// 28): skipped before k6 with the option named, never run on a guessed collateral.

describe('the load scenarios and an unknown collateral ratio', () => {
  const unknown = parseProfile({ amounts: { minCollateralRatio: null } });
  const env = { scenario: 'matching' as const, tier: 'growth' as const, publicMode: false, smoke: true, baseUrl: 'http://127.0.0.1:1/v1', runId: 't' };

  it('skips the borrowing scenarios, naming amounts.minCollateralRatio', () => {
    for (const s of ['matching', 'mixed']) expect(unknownCollateralReason(s, unknown)).toMatch(/borrows: .*amounts\.minCollateralRatio, which is unknown/);
    expect(unknownCollateralReason('rate-limit', unknown)).toBeUndefined();
    expect(unknownCollateralReason('matching', defaultProfile)).toBeUndefined();
  });

  it('runs them on a pledge seen taken, and the environment carries it', () => {
    const p = parseProfile({ amounts: { minCollateralRatio: null, pledgeTaken: { 'ETH/USDC': '0.001' } } });
    expect(unknownCollateralReason('matching', p)).toBeUndefined();
    expect(pledgeOf(unknown, 'USDC', '100')).toBeUndefined();
    expect(scenarioEnv(unknown, env).COLLATERAL_AMOUNT).toBe('');
    expect(scenarioEnv(p, env).COLLATERAL_AMOUNT).toBe('0.2');
  });

  it('skips them where the prices are unknown (assets.info null), naming assets.info, and runs them where the profile gives them', () => {
    const noPrices = parseProfile({ assets: { info: null } });
    for (const s of ['matching', 'mixed']) expect(unknownCollateralReason(s, noPrices)).toMatch(/borrows: .*assets\.info, which is unknown/);
    expect(scenarioEnv(noPrices, env).COLLATERAL_AMOUNT).toBe('');
    const cheapEth = parseProfile({ assets: { info: { ...defaultProfile.assets.info, ETH: { decimals: 18, oraclePriceUsd: '1000' } } } });
    expect(unknownCollateralReason('matching', cheapEth)).toBeUndefined();
  });
});
