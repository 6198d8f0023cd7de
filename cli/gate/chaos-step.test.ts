import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { atRealTime, chaosStep, scheduleOptions, watchOptions } from './chaos-step.ts';
import type { StepContext } from './step-types.ts';
import type { GateTarget } from './target.ts';

// Which retry check the gate's chaos step runs on which target: the whole schedule where there
// is a test clock or a time scale (as before), the real-time watch of retries 1 and 2 where
// there is neither, alongside the other steps, and nothing (a skip saying so) under --no-retry-watch.

const target = (over: Partial<GateTarget>): GateTarget => ({ baseUrl: 'http://127.0.0.1:9/v1', label: 't', embedded: false, apiKey: 'ck_test_k', tierKeys: {}, hasControls: false, close: async () => {}, ...over });
const ctx = (t: GateTarget): StepContext => ({ profile: defaultProfile, target: t, runDir: '/tmp', log: () => {} });

describe('gate chaos step', () => {
  it('watches at real time only where there is no clock and no time scale', () => {
    expect(atRealTime(ctx(target({})))).toBe(true);
    expect(atRealTime(ctx(target({ hasControls: true })))).toBe(false);
    expect(atRealTime(ctx(target({ timeScale: 60 })))).toBe(false);
    expect(atRealTime(ctx(target({ embedded: true, hasControls: true })))).toBe(false);
    // The embedded sandbox keeps its own fast-clock schedule.
    expect(scheduleOptions(ctx(target({ embedded: true, hasControls: true }))).baseUrl).toBeUndefined();
  });

  it('runs the watch alongside the other steps, 2 retries by default, more when asked', () => {
    expect(chaosStep.alongside!(ctx(target({})))).toBe(true);
    expect(watchOptions(ctx(target({}))).retries).toBe(2);
    expect(watchOptions(ctx(target({ retryWatch: { enabled: true, retries: 3 } }))).retries).toBe(3);
    // On a target's own clock the schedule shares the target with the others: in order, as before.
    expect(chaosStep.alongside!(ctx(target({ hasControls: true })))).toBe(false);
  });

  it('--no-retry-watch: a skip that says what is then not checked, without touching the target', async () => {
    const c = ctx(target({ retryWatch: { enabled: false, retries: 2 } }));
    expect(chaosStep.alongside!(c)).toBe(false);
    const r = await chaosStep.run(c);
    expect(r.status).toBe('skipped');
    expect(r.skipReason).toMatch(/--no-retry-watch: .*retries are not checked/);
  });
});
