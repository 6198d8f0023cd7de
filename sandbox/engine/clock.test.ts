import { describe, expect, it } from 'vitest';
import { TestClock } from './clock.ts';

describe('TestClock', () => {
  it('runs business time at the time scale and jumps on advance', () => {
    let real = 1_000;
    const c = new TestClock({ timeScale: 3600, startMs: 0, realNow: () => real });
    expect(c.now()).toBe(0);
    real += 1_000;
    expect(c.now()).toBe(3_600_000);
    const seen: number[] = [];
    c.onAdvance((n) => seen.push(n));
    c.advance(60_000);
    expect(c.now()).toBe(3_660_000);
    expect(seen).toEqual([3_660_000]);
    expect(c.realDelayUntil(3_660_000 + 3_600_000)).toBe(1_000);
    expect(c.realDelayUntil(0)).toBe(0);
    expect(() => c.advance(-1)).toThrow();
  });
  it('resumes from a snapshot', () => {
    let real = 0;
    const a = new TestClock({ timeScale: 10, startMs: 500, realNow: () => real });
    real = 100;
    const s = a.snapshot();
    const b = new TestClock({ timeScale: s.timeScale, startMs: s.businessMs, realNow: () => real });
    expect(b.now()).toBe(1_500);
  });
});
