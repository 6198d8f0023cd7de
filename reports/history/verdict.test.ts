import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare.ts';
import { parseBounds } from './bounds.ts';
import { compareVerdict, diffTable } from './table.ts';
import type { Extracted } from './extract.ts';
import type { RunRow } from './store.ts';

// compare judges a rate-limit figure against its tier's own limit, and gives one verdict, the
// one its exit code carries (issue 50: "admittedPerMinute 70 → 60" on Starter marked worse; a
// significant slowdown followed by "no regression beyond the bounds", exit 0).

const scope = 'rate-limit (starter) smoke';
const run = (admitted: number, p50: number[]): Extracted => ({
  figures: [
    { scope, endpoint: '', metric: 'tierPerMinute', value: 60 },
    { scope, endpoint: '', metric: 'tierBurst', value: 100 },
    { scope, endpoint: '', metric: 'admittedPerMinute', value: admitted },
    { scope: 'mixed', endpoint: 'rates.get', metric: 'p50', value: p50[Math.floor(p50.length / 2)] },
  ],
  samples: [{ scope: 'mixed', endpoint: 'rates.get', count: p50.length, samples: p50 }],
  checks: [],
});
const row = { runId: 'base' } as RunRow;
const fast = Array.from({ length: 40 }, (_, i) => 10 + (i % 5));
const slow = fast.map((x) => x * 5);

describe('compare: tier limits and one verdict', () => {
  it("70 → 60 a minute on Starter is better: 60 is the tier's limit exactly", () => {
    const c = compareRuns({ runId: 'now', target: 't', current: run(60, fast), baseline: { row, data: run(70, fast) }, baselineReason: 'test', bounds: parseBounds('refill=0') });
    const r = c.rows.find((x) => x.metric === 'admittedPerMinute')!;
    expect(r).toMatchObject({ baseline: 70, current: 60, direction: 'better', significance: "exact: at the tier's limit 60" });
    expect(r.regression).toBeUndefined();
    // Moving away from the limit, either way, is worse, and crosses refill=0.
    const away = compareRuns({ runId: 'now', target: 't', current: run(50, fast), baseline: { row, data: run(60, fast) }, baselineReason: 'test', bounds: parseBounds('refill=0') });
    expect(away.rows.find((x) => x.metric === 'admittedPerMinute')).toMatchObject({ direction: 'worse', regression: 'refill=0', significance: "exact: 10 below the tier's limit 60" });
  });

  it('a significant slowdown without bounds: the verdict says it is not judged, and the exit code is 0 with it', () => {
    const c = compareRuns({ runId: 'now', target: 't', current: run(60, slow), baseline: { row, data: run(60, fast) }, baselineReason: 'test', bounds: [] });
    const text = diffTable(c, { bounded: false });
    expect(text).toMatch(/significant: slower/);
    expect(text).not.toContain('no regression');
    const v = compareVerdict(c, false);
    expect(v).toEqual({ exitCode: 0, text: 'verdict: not judged, no bounds given (--max-regression, e.g. p95=10%): 1 figure worse (1 significantly), 0 better; exit 0' });
    expect(text.trimEnd().split('\n').at(-1)).toBe(v.text);
  });

  it('a percentile that moved the other way from its distribution is not called significant in that direction', () => {
    // The samples are slower as a whole, but this run's p95 figure is lower: its row says better,
    // and its significance must not say "significant: slower" beside it (seen on two Starter smokes).
    const withP95 = (x: Extracted, p95: number): Extracted => ({ ...x, figures: [...x.figures, { scope: 'mixed', endpoint: 'rates.get', metric: 'p95', value: p95 }] });
    const c = compareRuns({ runId: 'now', target: 't', current: withP95(run(60, slow), 15), baseline: { row, data: withP95(run(60, fast), 16) }, baselineReason: 'test', bounds: [] });
    const p50 = c.rows.find((x) => x.metric === 'p50')!;
    const p95 = c.rows.find((x) => x.metric === 'p95')!;
    expect(p50).toMatchObject({ direction: 'worse', significance: expect.stringMatching(/^significant: slower \(Mann-Whitney/) });
    expect(p95.direction).toBe('better');
    expect(p95.significance).toMatch(/^not significant for this figure \(faster\): the distribution as a whole is slower \(Mann-Whitney/);
    expect(compareVerdict(c, false).text).toContain('1 figure worse (1 significantly), 1 better');
  });

  it('with a bound it crosses: REGRESSION and exit 1, on the same line', () => {
    const c = compareRuns({ runId: 'now', target: 't', current: run(60, slow), baseline: { row, data: run(60, fast) }, baselineReason: 'test', bounds: parseBounds('p50=10%') });
    expect(compareVerdict(c, true)).toEqual({ exitCode: 1, text: 'verdict: REGRESSION: 1 figure beyond the bounds (p50=10%); exit 1' });
  });
});
