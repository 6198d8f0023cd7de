import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { runChecks } from '../runner.ts';
import { withServed } from '../testing/served.ts';
import { refillWindowMs, REFILL_WINDOW_MS } from './limits-refill.ts';

// limits.refill against the sandbox as it is, and against the sandbox whose limiter refills 60
// times slower than its headers state (--fault slow-refill): the first passes, the second fails
// within two windows naming the stated and the measured refill, and the run stops there.

function run(faults: Array<{ name: string; config?: Record<string, unknown> }>, only: string[]) {
  return withServed({ profile: defaultProfile, validateResponses: false, controls: false, faults }, (t) =>
    runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, burstKey: t.burstKey, keyTiers: t.keyTiers, profile: defaultProfile, only, say: () => {} }));
}

describe('limits.refill', () => {
  it('passes a limiter that refills as its headers state, noting the measured rate', { timeout: 60_000 }, async () => {
    const r = await run([], ['limits.refill']);
    expect(r.checks.map((c) => [c.id, c.status, c.message])).toEqual([['limits.refill', 'passed', undefined]]);
    expect(r.checks[0].notes.join(' ')).toMatch(/refill measured \d+(\.\d)?\/min against a stated \d+\/min/);
  });

  it('fails a limiter 60 times slower than stated, naming both figures, and stops the run', { timeout: 90_000 }, async () => {
    const t0 = performance.now();
    const r = await run([{ name: 'slow-refill' }], ['limits.refill', 'limits.tiers', 'endpoints.*']);
    const seconds = (performance.now() - t0) / 1000;
    const refill = r.checks.find((c) => c.id === 'limits.refill')!;
    expect(refill.status).toBe('failed');
    expect(refill.message).toMatch(/stated 60\/min with a burst of 100.*measured [0-9.]+\/min: X-RateLimit-Remaining \d+ → \d+/s);
    expect(r.status).toBe('failed');
    // Everything after it is skipped as not run, saying why, instead of paced for minutes.
    const after = r.checks.slice(r.checks.indexOf(refill) + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const c of after) expect([c.status, c.skipKind, c.message]).toEqual(['skipped', 'not-observed', expect.stringMatching(/^not run: the target's rate limiter refills far slower/)]);
    expect(seconds).toBeLessThan(60);
  });

  it('measures a Growth key over 2 s (10 tokens stated, not 40) and still fails one 60 times slower', { timeout: 60_000 }, async () => {
    expect([refillWindowMs(1), refillWindowMs(5), refillWindowMs(1000 / 60)]).toEqual([REFILL_WINDOW_MS, 2_000, 2_000]);
    const keys = [{ key: 'ck_test_refill_a_growth', partnerId: 'partner_a', tier: 'growth' as const }, { key: 'ck_test_refill_b_growth', partnerId: 'partner_b', tier: 'growth' as const }];
    await withServed({ profile: defaultProfile, validateResponses: false, controls: false, faults: [{ name: 'slow-refill' }], keys }, async (t) => {
      const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, keyTiers: t.keyTiers, profile: defaultProfile, only: ['limits.refill'], say: () => {} });
      expect(r.checks[0]!.status).toBe('failed');
      expect(r.checks[0]!.message).toMatch(/stated 300\/min with a burst of 500.* over 2\.\d s/s);
    });
  });
});
