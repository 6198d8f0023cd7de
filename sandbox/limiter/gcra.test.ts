import { describe, expect, it } from 'vitest';
import { TIERS, defaultProfile } from '../../contract/index.ts';
import { GcraLimiter } from './gcra.ts';
import { MemoryLimiterStore } from './store.ts';
import { publicRule, tierRule } from './rules.ts';

describe.each(Object.entries(TIERS))('GCRA limiter, %s tier', (tier, t) => {
  const rule = tierRule(defaultProfile, tier);
  const interval = 60_000 / t.perMinute;

  it(`allows exactly the burst of ${t.burst} at once, counting Remaining down to 0`, () => {
    const l = new GcraLimiter();
    for (let i = 0; i < t.burst; i++) {
      const d = l.check('k', rule, 0);
      expect(d.allowed).toBe(true);
      expect(d.limit).toBe(t.burst);
      expect(d.remaining).toBe(t.burst - 1 - i);
      // Full again once every spent request has refilled.
      expect(d.resetMs).toBe((i + 1) * interval);
    }
    const refused = l.check('k', rule, 0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: interval, resetMs: t.burst * interval });
    expect(refused.retryAfterSeconds).toBe(Math.max(1, Math.ceil(interval / 1000)));
  });

  it(`then refills at exactly ${t.perMinute}/min, one request every ${interval} ms`, () => {
    const l = new GcraLimiter();
    for (let i = 0; i < t.burst; i++) l.check('k', rule, 0);
    const allowedAt: number[] = [];
    // Try as many requests as pass at every millisecond of the following minute.
    for (let now = 0; now <= 60_000; now++) {
      while (l.check('k', rule, now).allowed) allowedAt.push(now);
    }
    expect(allowedAt.length).toBe(t.perMinute);
    expect(allowedAt).toEqual(Array.from({ length: t.perMinute }, (_, i) => (i + 1) * interval));
  });

  it('reports a bucket that matches its state after a partial refill', () => {
    const l = new GcraLimiter();
    for (let i = 0; i < 10; i++) l.check('k', rule, 0);
    // 3.5 intervals later, 3 requests have come back: 10 spent - 3 = 7 missing, this one makes 8.
    const d = l.check('k', rule, 3.5 * interval);
    expect(d.remaining).toBe(t.burst - 8);
    expect(d.resetMs).toBe(8 * interval - 0.5 * interval);
    expect(d.resetSeconds).toBe(Math.ceil((7.5 * interval) / 1000));
  });
});

describe('GCRA limiter', () => {
  it('keeps buckets apart', () => {
    const l = new GcraLimiter();
    const rule = { name: 'tiny', capacity: 1, perMinute: 60 };
    expect(l.check('a', rule, 0).allowed).toBe(true);
    expect(l.check('a', rule, 0).allowed).toBe(false);
    expect(l.check('b', rule, 0).allowed).toBe(true);
  });
  it('does not let refused requests drain the bucket further', () => {
    const l = new GcraLimiter();
    const rule = { name: 'tiny', capacity: 2, perMinute: 60 };
    l.check('a', rule, 0);
    l.check('a', rule, 0);
    for (let i = 0; i < 50; i++) expect(l.check('a', rule, 500).allowed).toBe(false);
    expect(l.check('a', rule, 1000).allowed).toBe(true);
  });
  it('gives untiered and unknown-tier keys the profile default tier, and public callers 60/min', () => {
    expect(tierRule(defaultProfile, undefined)).toEqual({ name: 'growth', capacity: 500, perMinute: 300 });
    expect(tierRule(defaultProfile, 'enterprise')).toEqual({ name: 'growth', capacity: 500, perMinute: 300 });
    expect(publicRule(defaultProfile)).toEqual({ name: 'public', capacity: 60, perMinute: 60 });
  });
  it('memory store forgets buckets that are full again', () => {
    const s = new MemoryLimiterStore();
    s.set('a', 100, 0);
    s.set('b', 300, 0);
    expect(s.sweep(200)).toBe(1);
    expect(s.get('a')).toBeUndefined();
    expect(s.get('b')).toBe(300);
  });
});
