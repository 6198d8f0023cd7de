import { describe, expect, it } from 'vitest';
import { publishedRates, restingRate, UNBOUNDED_REST } from './resting-rate.ts';

// The rate of lendcheck's resting lends comes from the profile's bound and the market's rates,
// never a fixed 0.5 that a correct target with a bound of 0.5 refuses (issue 47, seed 12).

describe('restingRate', () => {
  it('keeps 0.5 under the default bound 1, and lies strictly below any other bound', () => {
    expect(restingRate(1).rate).toBe(0.5);
    expect(restingRate(2).rate).toBe(0.5);
    for (const b of [0.5, 0.3, 0.1, 0.07, 0.05, 0.011]) expect(restingRate(b).rate).toBeLessThan(b);
  });

  it('with no bound known, lies well above the market\'s published rates, or is a small fraction', () => {
    expect(restingRate(null).rate).toBe(UNBOUNDED_REST);
    expect(restingRate(null, [0.05, 0.065, 0.07]).rate).toBe(0.15);
    // Twice 0.3 is past the ladder: 0.5, still above the market.
    expect(restingRate(null, [0.3]).rate).toBe(0.5);
  });

  it('gives no rate, saying why, where none lies below the bound and above the market', () => {
    const r = restingRate(0.05, [0.06]);
    expect(r.rate).toBeUndefined();
    expect(r.why).toMatch(/bounds\.rateBelow/);
    expect(restingRate(0.0005).rate).toBeUndefined();
    expect(restingRate(null, [0.6]).rate).toBeUndefined();
  });

  it('reads the published lend rates of a market list, bare or under data', () => {
    const m = { markets: [{ lendRate: 0.05, borrowRate: 0.06 }, { lendRate: null, borrowRate: '0.1' }] };
    // lendRate only: borrowRate is the lend side's price, which lendcheck's own resting lends set.
    expect(publishedRates(m)).toEqual([0.05]);
    expect(publishedRates({ data: m, timestamp: 'x' })).toEqual([0.05]);
    expect(publishedRates({ data: m.markets })).toEqual([0.05]);
    expect(publishedRates('nope')).toEqual([]);
  });
});
