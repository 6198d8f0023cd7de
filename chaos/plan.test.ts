import { describe, expect, it } from 'vitest';
import { parsePlan } from './plan.ts';

describe('fault plans', () => {
  it('"fail attempts 1–6 of every position.matched" selects exactly those attempts', () => {
    const plan = parsePlan({ rules: [{ events: ['position.matched'], attempts: { from: 1, to: 6 }, fault: 'status', config: { status: 500 } }] });
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => plan.choose('position.matched', n)?.def.name ?? null)).toEqual(['status', 'status', 'status', 'status', 'status', 'status', null]);
    expect(plan.choose('position.created', 1)).toBeNull();
    expect(plan.choose(null, 1)).toBeNull();
  });

  it('takes the first matching rule and honours probability with a repeatable seed', () => {
    const rules = [
      { attempts: [1], fault: 'reset' },
      { fault: 'status', config: { status: 503 }, probability: 0.5 },
    ];
    const a = parsePlan({ seed: 7, rules });
    const b = parsePlan({ seed: 7, rules });
    expect(a.choose('position.created', 1)!.def.name).toBe('reset');
    const rollsA = Array.from({ length: 200 }, () => a.choose('position.created', 2) !== null);
    const rollsB = Array.from({ length: 200 }, () => b.choose('position.created', 2) !== null);
    expect(rollsA).toEqual(rollsB);
    const hits = rollsA.filter(Boolean).length;
    expect(hits).toBeGreaterThan(60);
    expect(hits).toBeLessThan(140);
  });

  it('rejects unknown faults, bad configs and unknown event types, naming the field', () => {
    expect(() => parsePlan({ rules: [{ fault: 'meteor' }] })).toThrow(/rules\.0\.fault: unknown fault "meteor"/);
    expect(() => parsePlan({ rules: [{ fault: 'status', config: { status: 200 } }] })).toThrow(/rules\.0\.config\.status/);
    expect(() => parsePlan({ rules: [{ fault: 'status', config: { status: 500 }, events: ['position.exploded'] }] })).toThrow(/rules\.0\.events\.0: unknown event type/);
    expect(() => parsePlan({ rules: [{ fault: 'reset', attempts: { from: 3, to: 1 } }] })).toThrow(/attempts/);
    expect(() => parsePlan({ rules: [{ fault: 'reset', probability: 2 }] })).toThrow(/rules\.0\.probability/);
  });
});

describe('the example plan in examples/plans', () => {
  it('parses', async () => {
    const { loadPlan } = await import('./plan.ts');
    const plan = loadPlan(new URL('../examples/plans/flaky.json', import.meta.url).pathname);
    expect(plan.choose('position.matched', 6)!.def.name).toBe('status');
  });
});
