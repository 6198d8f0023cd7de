import { describe, expect, it } from 'vitest';
import { parseProfile } from './index.ts';
import { orderMaturity } from './order-maturity.ts';

describe('orderMaturity', () => {
  it('is the default maturity when it is a listed market, else the first listed one', () => {
    expect(orderMaturity(parseProfile({}))).toBe('30d');
    expect(orderMaturity(parseProfile({ markets: { maturities: ['69d', '301d', '365d'] } }))).toBe('69d');
    expect(orderMaturity(parseProfile({ markets: { maturities: ['69d', '365d'] }, lifecycle: { defaultMaturity: '365d' } }))).toBe('365d');
  });
});
