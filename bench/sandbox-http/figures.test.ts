import { describe, expect, it } from 'vitest';
import { percentile, sum } from './figures.ts';

describe('a sliced round', () => {
  it('is its requests over its summed time, with the median p50 and the worst p99', () => {
    const f = sum([
      { rps: 1000, p50: 1, p99: 5, errors: 0, total: 1000, cpuUs: 100, statuses: { 200: 1000 } },
      { rps: 500, p50: 3, p99: 9, errors: 1, total: 1000, cpuUs: 200, statuses: { 200: 999, 429: 1 } },
      { rps: 2000, p50: 2, p99: 4, errors: 0, total: 2000, cpuUs: 50, statuses: { 200: 2000 } },
    ]);
    // 4,000 requests in 1 + 2 + 1 s: not the mean of the three rates (1,167), which would
    // weigh the slow slice as if it had lasted as long as the others.
    expect(f.rps).toBeCloseTo(4000 / 4, 6);
    expect([f.p50, f.p99, f.errors, f.total]).toEqual([2, 9, 1, 4000]);
    expect(f.cpuUs).toBeCloseTo((100 * 1000 + 200 * 1000 + 50 * 2000) / 4000, 6);
    expect(f.statuses).toEqual({ 200: 3999, 429: 1 });
  });

  it("takes p50 and p99 from all the slices' latencies when each brings its histogram", () => {
    // Slice one: 99 answers at 1 ms and 1 at 40 ms (its p99 is 40); slice two: 100 at 2 ms.
    // Together 1 of 200 is slow, so the round's p99 is 2 ms, not the worst slice's 40.
    const a = { rps: 100, p50: 1, p99: 40, errors: 0, total: 100, hist: [[1000, 99], [40_000, 1]] as Array<[number, number]> };
    const b = { rps: 100, p50: 2, p99: 2, errors: 0, total: 100, hist: [[2000, 100]] as Array<[number, number]> };
    const f = sum([a, b]);
    expect([f.p50, f.p99]).toEqual([2, 2]);
    // A third of them slow: the p99 is theirs.
    const c = { ...b, hist: [[40_000, 100]] as Array<[number, number]> };
    expect(sum([a, b, c]).p99).toBe(40);
    // Without a histogram on every slice, the worst slice's p99 stands.
    expect(sum([a, { ...b, hist: undefined }]).p99).toBe(40);
  });

  it('reads a percentile from a histogram as wrk does', () => {
    // wrk's rank is round(p/100 · n + 0.5): the 51st of 100 for p50, the 100th for p99.
    const h: Array<[number, number]> = [[10, 50], [20, 49], [30, 1]];
    expect([percentile(h, 50), percentile(h, 99), percentile(h, 100)]).toEqual([20, 30, 30]);
  });
});
