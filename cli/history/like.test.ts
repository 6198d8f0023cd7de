import { describe, expect, it } from 'vitest';
import { sharedOnly } from './like.ts';

describe('compare: like with like', () => {
  it('keeps only the scopes both runs measured, and says which were left out', () => {
    const fig = (scope: string, metric: string, value: number) => ({ scope, endpoint: '', metric, value });
    const current = { figures: [fig('rate-limit (growth) smoke', 'burstNet', 3)], samples: [], checks: [] };
    const baseline = { figures: [fig('rate-limit (growth) smoke', 'burstNet', 2), fig('conformance', 'requests', 900), fig('mixed (growth) smoke', 'p95', 40)], samples: [], checks: [] };
    const r = sharedOnly(current, baseline);
    expect(r.current.figures).toHaveLength(1);
    expect(r.baseline.figures.map((f) => f.scope)).toEqual(['rate-limit (growth) smoke']);
    expect(r.leftOut).toEqual(['conformance (only in the baseline)', 'mixed (growth) smoke (only in the baseline)']);
  });
});
