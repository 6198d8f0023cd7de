import { describe, it, expect } from 'vitest';
import type { CheckResult, PartResult } from '../../contract/results.ts';
type CheckStatus = CheckResult['status'];
import { mergeLoadParts } from './load-step.ts';

const run = (name: string, status: CheckStatus, extra: Partial<PartResult> = {}): PartResult => ({
  part: 'load', name, status, startedAt: '2026-11-22T15:00:00.000Z', durationMs: 1000, figures: { requests: 10 },
  checks: [{ id: 'burst', title: 'burst admitted', requirements: ['LIMIT-tier-starter'], status, durationMs: 0, notes: [] }],
  series: [{ name, accepted: [{ t: 0, value: 1 }], rejected: [], latencyMs: {} }],
  ...extra,
});

describe('the gate load step', () => {
  it('merges the per-tier runs into one part, keeping every series and naming checks by run', () => {
    const m = mergeLoadParts([run('rate-limit (starter) smoke', 'passed'), run('matching (scale) smoke', 'passed')], '2026-11-22T15:00:00.000Z', 2000, 't', 'p');
    expect(m.status).toBe('passed');
    expect(m.series!.map((s) => s.name)).toEqual(['rate-limit (starter) smoke', 'matching (scale) smoke']);
    expect(m.checks.map((c) => c.id)).toEqual(['rate-limit (starter) smoke: burst', 'matching (scale) smoke: burst']);
    expect(m.figures).toEqual({ 'rate-limit (starter) smoke: requests': 10, 'matching (scale) smoke: requests': 10 });
  });

  it('fails when any run failed, and is skipped only when every run was, with their reasons', () => {
    expect(mergeLoadParts([run('a', 'passed'), run('b', 'failed')], '', 0, 't', 'p').status).toBe('failed');
    expect(mergeLoadParts([run('a', 'passed'), run('b', 'skipped', { skipReason: 'no controls' })], '', 0, 't', 'p').status).toBe('passed');
    const s = mergeLoadParts([run('a', 'skipped', { skipReason: 'r1' }), run('b', 'skipped', { skipReason: 'r2' })], '', 0, 't', 'p');
    expect(s.status).toBe('skipped');
    expect(s.skipReason).toBe('a: r1; b: r2');
  });
});
