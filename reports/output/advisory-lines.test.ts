import { describe, expect, it } from 'vitest';
import type { CheckResult, PartResult } from '../../kernel/results.ts';
import { advisoryLines } from './advisory-lines.ts';
import { paint } from './color.ts';

const advice = { expected: '`maturity` as part 2 types it in a position (part 2)', received: 'maturity: expected string, received null', requirement: 'SHAPE-position', evidence: 'GET /v1/markets/USDC/orderbook → 200' };
const check = (id: string, c: Partial<CheckResult> = {}): CheckResult => ({ id, title: id, requirements: [], status: 'passed', durationMs: 1, notes: [], ...c });
const part = (checks: CheckResult[]): PartResult => ({ part: 'conformance', name: 'conformance', status: 'passed', startedAt: '2026-01-01T00:00:00Z', durationMs: 1, checks, figures: {} });

describe('advisories on the console', () => {
  it('says each distinct advice once, with the checks that found it and its evidence', () => {
    const lines = advisoryLines([part([check('endpoint.orderbook.get', { advisories: [advice] }), check('endpoint.every-success-body', { advisories: [advice] }), check('other')])], paint(false));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^advisories \(1\): .*never a failure/);
    expect(lines[1]).toBe(`  ! [SHAPE-position] conformance/endpoint.orderbook.get, conformance/endpoint.every-success-body: expected ${advice.expected} / received ${advice.received} — ${advice.evidence}`);
  });

  it('says nothing when there is no advice', () => {
    expect(advisoryLines([part([check('a')])], paint(false))).toEqual([]);
  });
});
