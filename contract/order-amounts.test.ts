import { describe, expect, it } from 'vitest';
import { Decimal } from './decimal.ts';
import { legalAmount, lendAsset } from './order-amounts.ts';
import { parseProfile } from './profile.ts';

// Every amount a check sends comes from the profile's bounds (issue 47, cause 4).

describe('legalAmount', () => {
  it('keeps the check\'s own base under the default bounds, one whole unit apart', () => {
    const p = parseProfile({});
    expect([0, 1, 2].map((n) => legalAmount(p, n, { base: '10' }))).toEqual(['10', '11', '12']);
    expect(legalAmount(p)).toBe('100');
  });

  it('raises every amount to a detected minimum of 100, distinct and exact', () => {
    const p = parseProfile({ amounts: { minOrder: '100', minWithdrawal: '25.5' } });
    const series = Array.from({ length: 120 }, (_, n) => legalAmount(p, n, { base: '10' }));
    expect(new Set(series).size).toBe(120);
    for (const a of series) expect(new Decimal(a).gte(100)).toBe(true);
    expect(legalAmount(p, 0, { base: '10', kind: 'withdrawal' })).toBe('25.5');
  });

  it('steps by the asset\'s smallest unit when whole units do not fit below the maximum, and says when nothing fits', () => {
    const p = parseProfile({ amounts: { minOrder: '100', maxOrder: '100.5' } });
    expect(legalAmount(p, 0)).toBe('100');
    expect(legalAmount(p, 3)).toBe('100.000003');
    expect(legalAmount(p, 0, { base: '1000' })).toBe('100.5');
    const tight = parseProfile({ amounts: { minOrder: '5', maxOrder: '5' } });
    expect(() => legalAmount(tight, 1)).toThrow(/leave no 2 distinct amounts/);
  });

  it('lends in the profile\'s first lendable borrow asset', () => {
    expect(lendAsset(parseProfile({}))).toBe('USDC');
    expect(lendAsset(parseProfile({ assets: { borrow: ['ETH', 'DAI'] } }))).toBe('DAI');
  });
});
