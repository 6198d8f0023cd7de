import { describe, expect, it } from 'vitest';
import { collateralAsset, collateralFor, defaultProfile, parseProfile, UnknownOption } from './index.ts';

// A detected profile that could not read the collateral ratio records it as null (issue 47,
// mutator seed 28: 2.97, against only ETH as collateral). No pledge is computed from a guess.

describe('an unknown minimum collateral ratio', () => {
  const unknown = parseProfile({ amounts: { minCollateralRatio: null } });

  it('parses as null, and the default profile keeps its 1.5', () => {
    expect(unknown.amounts.minCollateralRatio).toBeNull();
    expect(defaultProfile.amounts.minCollateralRatio).toBe('1.5');
  });

  it('makes collateralFor throw UnknownOption naming the option', () => {
    let thrown: unknown;
    try {
      collateralFor(unknown, 'USDC', '100');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UnknownOption);
    expect((thrown as UnknownOption).option).toBe('amounts.minCollateralRatio');
    expect((thrown as Error).message).toMatch(/needs profile amounts\.minCollateralRatio, which is unknown/);
  });

  it('still names the collateral asset, which needs no ratio', () => {
    expect(collateralAsset(unknown, 'USDC')).toBe('ETH');
    expect(collateralFor(defaultProfile, 'USDC', '100').asset).toBe(collateralAsset(defaultProfile, 'USDC'));
  });

  it('pledges twice a pledge seen taken for the pair where the ratio is unknown (amounts.pledgeTaken)', () => {
    const p = parseProfile({ assets: { borrow: ['USDT'], collateral: ['ETH', 'USDT'] }, amounts: { minCollateralRatio: null, pledgeTaken: { 'ETH/USDT': '0.0012' } } });
    expect(collateralFor(p, 'USDT', '100')).toEqual({ asset: 'ETH', amount: '0.24' });
    // Another pair has no pledge seen: unknown still.
    expect(() => collateralFor(parseProfile({ amounts: { minCollateralRatio: null, pledgeTaken: { 'ETH/USDT': '0.0012' } } }), 'USDC', '100')).toThrow(UnknownOption);
  });

  it('pledges twice the ratio where it is known', () => {
    const p = parseProfile({ amounts: { minCollateralRatio: '2.97' }, assets: { info: { ...defaultProfile.assets.info, ETH: { decimals: 18, oraclePriceUsd: '2500' } } } });
    // 100 × 2.97 × 2 / 2500 = 0.2376, rounded up to two significant digits.
    expect(collateralFor(p, 'USDT', '100')).toEqual({ asset: 'ETH', amount: '0.24' });
  });
});
