import { describe, it, expect } from 'vitest';
import type { CheckResult, PartResult } from '../../kernel/results.ts';
type CheckStatus = CheckResult['status'];
import { embeddedBurstAllowance, loadStep, mergeLoadParts, runIndependent } from './load-step.ts';
import type { StepContext } from './step-types.ts';
import type { GateTarget } from './target.ts';

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
    expect(m.figures).toEqual({ 'rate-limit (starter) smoke: seconds': 1, 'rate-limit (starter) smoke: requests': 10, 'matching (scale) smoke: seconds': 1, 'matching (scale) smoke: requests': 10 });
  });

  it('fails when any run failed, and is skipped only when every run was, with their reasons', () => {
    expect(mergeLoadParts([run('a', 'passed'), run('b', 'failed')], '', 0, 't', 'p').status).toBe('failed');
    expect(mergeLoadParts([run('a', 'passed'), run('b', 'skipped', { skipReason: 'no controls' })], '', 0, 't', 'p').status).toBe('passed');
    const s = mergeLoadParts([run('a', 'skipped', { skipReason: 'r1' }), run('b', 'skipped', { skipReason: 'r2' })], '', 0, 't', 'p');
    expect(s.status).toBe('skipped');
    expect(s.skipReason).toBe('a: r1; b: r2');
  });

  it('runs runs on different keys at once and runs sharing a key one after another, in plan order', async () => {
    const log: string[] = [];
    const plan = [
      { name: 'a', key: 'k1', options: { scenario: 'rate-limit' as const } },
      { name: 'b', key: 'k2', options: { scenario: 'rate-limit' as const } },
      { name: 'c', key: 'k1', options: { scenario: 'matching' as const } },
      { name: 'd', options: { scenario: 'matching' as const } },
    ];
    const out = await runIndependent(plan, async (r) => {
      log.push(`start ${r.name}`);
      await new Promise((done) => setTimeout(done, 30));
      log.push(`end ${r.name}`);
      return r.name;
    }, 5);
    expect(out).toEqual(['a', 'b', 'c', 'd']);
    // c waits for a (same key); b and d start before a ends.
    expect(log.indexOf('start c')).toBeGreaterThan(log.indexOf('end a'));
    expect(log.indexOf('start b')).toBeLessThan(log.indexOf('end a'));
    expect(log.indexOf('start d')).toBeLessThan(log.indexOf('end a'));
  });

  it('on the embedded sandbox runs alongside conformance, with a burst allowance sized for it; elsewhere after it, at the scenario\'s own', () => {
    const ctx = (embedded: boolean) => ({ target: { embedded } as GateTarget }) as StepContext;
    expect(loadStep.alongside!(ctx(true))).toBe(true);
    expect(loadStep.alongside!(ctx(false))).toBe(false);
    // Scale's 2,400 requests at 200 a second; Growth's 600 and Starter's 120 at the scenario's floor of 4 s.
    expect([embeddedBurstAllowance('scale'), embeddedBurstAllowance('growth'), embeddedBurstAllowance('starter')]).toEqual([12, 4, 4]);
  });
});
