import { describe, expect, it } from 'vitest';
import type { PartResult } from '../kernel/results.ts';
import { timeToMatchTable } from './time-to-match.ts';

describe('time-to-match table', () => {
  it('shows p50/p95/p99 per market and the match ratio of each matching run, and how it was measured', () => {
    const p: PartResult = {
      part: 'load', name: 'load', status: 'passed', startedAt: '2026-11-23T05:00:00.000Z', durationMs: 1, checks: [],
      figures: {
        'matching (pool of 8 keys) smoke: timeToMatchFrom': 'signed position.matched webhooks (receiver store)',
        'matching (pool of 8 keys) smoke: time to match p50 ms': 5.1,
        'matching (pool of 8 keys) smoke: time to match p99 ms': 31.2,
        'matching (pool of 8 keys) smoke: time to match USDC 30d p95 ms': 17,
        'matching (pool of 8 keys) smoke: match ratio USDC 30d': 0.9938,
        'matching (pool of 8 keys) smoke: matchRatio': 0.9969,
        'rate-limit (starter) smoke: requests': 10,
      },
    };
    const text = String(timeToMatchTable(p));
    expect(text).toContain('<td>all markets</td><td class="num">5.1</td><td class="num">—</td><td class="num">31.2</td><td class="num">99.69 %</td>');
    expect(text).toContain('<td>USDC 30d</td><td class="num">—</td><td class="num">17</td><td class="num">—</td><td class="num">99.38 %</td>');
    expect(text).toContain('measured from signed position.matched webhooks');
    expect(String(timeToMatchTable({ ...p, figures: { requests: 1 } }))).toBe('');
  });
});
