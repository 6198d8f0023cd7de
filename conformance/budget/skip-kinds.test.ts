import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { CheckSkip, runCheck, unaffordable } from '../../kernel/check-kernel.ts';
import type { CheckResult } from '../../kernel/results.ts';
import { skipKindFor } from '../../kernel/needs.ts';
import { exitCodeOf } from '../../cli/commands/conformance.ts';
import { partStatus } from '../../kernel/part-status.ts';
import { RequestBudget } from './budget.ts';

// A verdict weighs its evidence: a skip lendcheck could not afford keeps the part from passing,
// a skip for what the target lacks (and the spec does not require) does not. The kind travels
// typed from the throw to the result; nothing reads it back out of the message.

const row = (id: string, status: CheckResult['status'], skipKind?: CheckResult['skipKind']): CheckResult => ({ id, title: id, requirements: [], status, durationMs: 0, notes: [], ...(skipKind ? { skipKind, message: 'why' } : {}) });

describe('skip kinds and the part status', () => {
  it('a skip for rate-limit room makes the part incomplete, never passed (exit 3)', () => {
    const s = partStatus([row('a', 'passed'), row('b', 'skipped', 'unaffordable'), row('c', 'skipped', 'target-lacks')]);
    expect(s.status).toBe('incomplete');
    expect(s.skipReason).toMatch(/1 check could not be afforded.*: b;/);
    expect(exitCodeOf({ status: s.status, figures: { passed: 1, failed: 0 } })).toBe(3);
  });

  it('skips for what the target or the run lacks, or what did not arise, may pass with the rest', () => {
    expect(partStatus([row('a', 'passed'), row('c', 'skipped', 'target-lacks'), row('d', 'skipped', 'run-lacks'), row('e', 'skipped', 'not-observed')]).status).toBe('passed');
  });

  it('a failure outweighs an unaffordable skip', () => {
    expect(partStatus([row('a', 'failed'), row('b', 'skipped', 'unaffordable')]).status).toBe('failed');
  });

  it('the kind a check throws reaches its result; an untyped skip reads as not-observed', async () => {
    const ctx = {};
    const r1 = await runCheck({ id: 'x', title: 'x holds', requirements: [], run: async () => { throw unaffordable('no room'); } }, ctx);
    expect(r1).toMatchObject({ status: 'skipped', skipKind: 'unaffordable', message: 'no room' });
    const r2 = await runCheck({ id: 'y', title: 'y holds', requirements: [], run: async () => { throw new CheckSkip('the target has no test clock', 'target-lacks'); } }, ctx);
    expect(r2.skipKind).toBe('target-lacks');
    const r3 = await runCheck({ id: 'z', title: 'z holds', requirements: [], run: async () => { throw new CheckSkip('the order matched first'); } }, ctx);
    expect(r3.skipKind).toBe('not-observed');
  });

  it('an unmet need is the target\'s only when it is sandbox controls', () => {
    expect(skipKindFor(['sandbox-controls'], { sandboxControls: false })).toBe('target-lacks');
    expect(skipKindFor(['sandbox-controls', 'second-key'], { sandboxControls: false })).toBe('run-lacks');
    expect(skipKindFor(['second-key'], { secondKey: true })).toBeUndefined();
  });

  it('the budget skips a check it cannot give room as unaffordable', async () => {
    let t = 0;
    const budget = new RequestBudget({ profile: defaultProfile, maxWaitMs: 5_000, tiers: { k: 'starter' }, now: () => t, wait: async (ms) => void (t += ms) });
    for (let i = 0; i < 100; i++) await budget.admit('k', true, 'a');
    const e = await budget.acquire('k', 50, 'a storm').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CheckSkip);
    expect((e as CheckSkip).kind).toBe('unaffordable');
    const big = await budget.acquire('k', 101, 'a bigger storm').catch((x: unknown) => x);
    expect((big as CheckSkip).kind).toBe('unaffordable');
  });
});
