import { describe, expect, it } from 'vitest';
import { sum } from './sandbox-http.ts';

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
});
