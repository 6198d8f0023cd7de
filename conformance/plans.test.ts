import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../contract/index.ts';
import { allChecks } from './registry.ts';
import { capSkip, PLAN_COSTS, PLANS, planChecks, planNamed, QUICK_CHECKS } from './plans.ts';
import { CAUGHT_BY } from './concurrency/testing/proof.ts';

// The quick plan's promises, held without a target: its checks exist, its measured cost fits its
// cap, and every concurrency and money fault mode of the sandbox has a catching check in it.
// (That the checks do catch them through the CLI is bench/quick-plan.ts, outside npm test.)
const MONEY_FAULTS = [...Object.keys(CAUGHT_BY), 'withdraw-not-debited', 'cancel-double-refund'];

describe('conformance plans', () => {
  const all = allChecks(defaultProfile);

  it('the full plan runs every check and leaves none out', () => {
    const p = planChecks(PLANS.full, all);
    expect(p.run).toHaveLength(all.length);
    expect(p.leftOut).toEqual([]);
  });

  it('every quick check exists, and what it leaves out is named', () => {
    const p = planChecks(PLANS.quick, all);
    expect(p.run.map((c) => c.id)).toEqual(QUICK_CHECKS.map((c) => c.id));
    expect(p.leftOut.length).toBe(all.length - QUICK_CHECKS.length);
  });

  it("the quick plan's measured cost fits its cap of 150 requests", () => {
    const total = QUICK_CHECKS.reduce((n, c) => n + (PLAN_COSTS[c.id] ?? 0), 0);
    expect(PLANS.quick.requestCap).toBe(150);
    expect(total).toBeLessThanOrEqual(150);
  });

  it('every concurrency and money fault mode has a catching check in the quick plan', () => {
    const caught = new Set(QUICK_CHECKS.flatMap((c) => c.catches));
    expect(MONEY_FAULTS.filter((f) => !caught.has(f))).toEqual([]);
  });

  it('a check the cap cannot afford skips, naming the cap; an uncapped plan never does', () => {
    expect(capSkip(PLANS.quick, 'concurrency.matching-no-overfill', 140)).toMatch(/cap of 150 requests: 140 sent/);
    expect(capSkip(PLANS.quick, 'concurrency.matching-no-overfill', 100)).toBeUndefined();
    expect(capSkip(PLANS.full, 'concurrency.matching-no-overfill', 10_000)).toBeUndefined();
    // A judge of the run's answers costs nothing of its own: never cut, however much was sent.
    expect(capSkip(PLANS.quick, 'endpoint.every-success-body', 160)).toBeUndefined();
  });

  it('the quick plan never drives sandbox controls (its cost is the same on every target); the full plan may', () => {
    expect(PLANS.quick.controls).toBe(false);
    expect(PLANS.full.controls).toBeUndefined();
  });

  it('an unknown plan is an error naming the plans there are', () => {
    expect(() => planNamed('fast')).toThrow(/unknown plan "fast" \(plans: full, quick\)/);
    expect(planNamed(undefined).name).toBe('full');
  });
});
