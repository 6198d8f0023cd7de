import { describe, expect, it } from 'vitest';
import { mannWhitneyU } from './stats.ts';

describe('mannWhitneyU', () => {
  it('finds no shift between the same distribution', () => {
    const a = Array.from({ length: 60 }, (_, i) => (i * 7) % 23);
    const t = mannWhitneyU(a, [...a].reverse())!;
    expect(t.pValue).toBeGreaterThan(0.9);
    expect(t.effect).toBeCloseTo(0.5, 5);
  });

  it('finds a shift of a few milliseconds among 40 samples each', () => {
    const base = Array.from({ length: 40 }, (_, i) => 10 + (i % 10) / 2);
    const slow = base.map((x) => x + 4);
    const t = mannWhitneyU(slow, base)!;
    expect(t.pValue).toBeLessThan(0.001);
    expect(t.effect).toBeGreaterThan(0.8);
  });

  it('matches the value worked by hand for a small example', () => {
    // Pooled ranks of the first sample: 1, 2, 4, 5 → R1 = 12, U = 12 − 4·5/2 = 2; mean 10,
    // variance 4·5·10/12; z = (2 − 10 + 0.5)/√16.67 = −1.837 → two-sided p = 0.0662
    // (scipy.stats.mannwhitneyu(..., method='asymptotic') gives the same).
    const t = mannWhitneyU([1, 2, 3, 4], [5, 6, 7, 8, 2.5])!;
    expect(t.u).toBe(2);
    expect(t.z).toBeCloseTo(-1.837, 3);
    expect(t.pValue).toBeCloseTo(0.0662, 3);
  });

  it('gives p = 1 when every value is tied', () => {
    expect(mannWhitneyU([3, 3, 3], [3, 3])!.pValue).toBe(1);
  });
});
