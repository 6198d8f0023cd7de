import { describe, expect, it } from 'vitest';
import { Decimal } from '../../contract/decimal.ts';
import { decimalPlaces, defaultProfile, loadProfile, parseProfile } from '../../contract/index.ts';
import { amountOf, repayPart, walkCollateral } from './amounts.ts';

// The walk's amounts never rest on the profile's decimals beyond two places: under the
// defaults (WBTC 8 places) its collateral fits a target whose WBTC takes 6 or fewer.

const minimal = loadProfile('examples/profiles/minimal-sandbox.json');

describe('model-walk amounts', () => {
  it('sends at most two decimal places, whatever decimals the profile gives', () => {
    for (const p of [defaultProfile, minimal]) {
      for (const units of [1, 2, 7, 40]) {
        for (const base of [p.amounts.minOrder, p.amounts.minWithdrawal]) expect(decimalPlaces(amountOf(p, 'USDT', base, units).toFixed())).toBeLessThanOrEqual(2);
        const c = walkCollateral(p, 'USDT', amountOf(p, 'USDT', p.amounts.minOrder, units));
        expect(c.asset).toBe(p === minimal ? 'WBTC' : 'ETH');
        expect(decimalPlaces(c.amount), c.amount).toBeLessThanOrEqual(2);
      }
    }
    // The tour's borrow(2): 0.04 USDT, whose collateral under minimal-sandbox's lists and the default prices was 0.0000012 WBTC (7 places).
    expect(amountOf(defaultProfile, 'USDT', '0.01', 2).toFixed()).toBe('0.04');
    const defaultsInfo = parseProfile({ ...minimal, assets: { ...minimal.assets, info: defaultProfile.assets.info } });
    expect(walkCollateral(defaultsInfo, 'USDT', new Decimal('0.04'))).toEqual({ asset: 'WBTC', amount: '0.01' });
  });

  it('narrows to the profile when it gives an asset fewer places, and rounds a finer base up', () => {
    const p = parseProfile({ amounts: { minOrder: '0.001' }, assets: { info: { ...defaultProfile.assets.info, USDT: { decimals: 1, oraclePriceUsd: '1' } } } });
    expect(amountOf(p, 'USDT', '0.001', 3).toFixed()).toBe('0.4');
    expect(amountOf(defaultProfile, 'USDT', '0.001', 3).toFixed()).toBe('0.04');
    expect(amountOf(parseProfile({ amounts: { maxOrder: '1' } }), 'USDT', '5', 3).toFixed()).toBe('1');
  });

  it('repays a fifth in part, at least the smallest amount, and never all that is left', () => {
    expect(repayPart(defaultProfile, 'USDT', new Decimal('10'))?.toFixed()).toBe('2');
    expect(repayPart(defaultProfile, 'USDT', new Decimal('0.04'))?.toFixed()).toBe('0.01');
    expect(repayPart(defaultProfile, 'USDT', new Decimal('0.01'))).toBeUndefined();
  });
});
