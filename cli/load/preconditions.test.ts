import { describe, expect, it } from 'vitest';
import { applyPreconditions } from './preconditions.ts';

const v = (metric: string, ok: boolean, observed?: number, expression = 'count>=1') => ({ metric, expression, ok, observed });

describe('load preconditions', () => {
  it('a burst answered too slowly leaves the sustained phase not judged, with the figures', () => {
    const out = applyPreconditions([v('burst_seconds', false, 7.34, 'max<4'), v('accepted{phase:sustain,window:measure}', false, 3), v('rejected{phase:sustain,window:measure}', true, 9), v('burst_excess', false, 40)]);
    expect(out.map((j) => [j.verdict.metric, j.notJudged !== undefined])).toEqual([
      ['burst_seconds', true],
      ['accepted{phase:sustain,window:measure}', true],
      ['rejected{phase:sustain,window:measure}', true],
      // A rule's threshold is still judged.
      ['burst_excess', false],
    ]);
    expect(out[0]!.notJudged).toMatch(/answered the burst in 7\.3 s \(the plan allows 4 s/);
  });

  it('a burst answered in time judges everything', () => {
    const out = applyPreconditions([v('burst_seconds', true, 1.2, 'max<4'), v('accepted{phase:sustain,window:measure}', false, 3)]);
    expect(out.every((j) => j.notJudged === undefined)).toBe(true);
  });
});
