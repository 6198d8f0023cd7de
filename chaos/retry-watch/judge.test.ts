import { describe, expect, it } from 'vitest';
import { judge, type Expect, type Seen } from './judge.ts';

// The watch's rules one by one, on made-up arrivals: each is judged the moment it is certain.

const E: Expect = {
  causedAt: 0, retries: 2, delaysMs: [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000], tolerance: { pct: 2, minMs: 50 },
  from: 'attempt-end', firstMs: 30_000, quietMs: 10_000, laterCommand: '`chaos receive` + `chaos validate`', subject: 'position.created for pos_1',
};
const at = (ms: number, over: Partial<Seen> = {}): Seen => ({ at: ms, end: ms + 5, raw: '{"id":"evt_1"}', eventId: 'evt_1', sigOk: true, status: 500, ...over });
const by = (j: ReturnType<typeof judge>, id: string) => j.checks.find((c) => c.id === id);

describe('retry watch judge', () => {
  it('waits while a delivery may still come, and fails the first delivery once 30 s have passed without one', () => {
    expect(judge([], E, 29_000).done).toBe(false);
    const j = judge([], E, 30_001);
    expect(j.done).toBe(true);
    expect(by(j, 'retries.first-delivery')!.message).toMatch(/expected a delivery within 30\.0 s of the order \/ received none/);
    // Nothing after it is reported passed.
    expect(j.checks.filter((c) => c.status === 'passed')).toEqual([]);
  });

  it('fails retry 1 the moment its window has passed (60 s ± 1.2 s after the 500), not at the end of the run', () => {
    const first = at(1_000);
    expect(judge([first], E, 1_005 + 61_000).done).toBe(false);
    const j = judge([first], E, 1_005 + 61_300);
    expect(by(j, 'retries.retry-1')!.message).toMatch(/received none by \+61\.3 s/);
    expect(by(j, 'retries.retry-2')!.status).toBe('skipped');
  });

  it('names a changed body under the same id, and a delivery after the 2xx', () => {
    const first = at(1_000);
    const changed = judge([first, at(61_100, { raw: '{"id":"evt_1","x":1}' })], E, 70_000);
    expect(by(changed, 'retries.retry-1')!.message).toMatch(/same body .* different one under the same id/);
    const r1 = at(61_100);
    const r2 = at(r1.end + 300_000, { status: 200 });
    const extra = judge([first, r1, r2, at(r2.end + 2_000)], E, r2.end + 3_000);
    expect(by(extra, 'retries.ends-on-2xx')!.message).toMatch(/expected no further delivery after the 200 \/ received event evt_1 again after 2\.0 s/);
    const quiet = judge([first, r1, r2], E, r2.end + 10_001);
    expect(quiet.done).toBe(true);
    expect(by(quiet, 'retries.ends-on-2xx')!.status).toBe('passed');
    expect(quiet.delays.map((d) => d.retry)).toEqual([1, 2]);
    expect(quiet.checks.filter((c) => c.status === 'skipped').map((c) => c.id)).toEqual(['retries.retry-3', 'retries.retry-4', 'retries.retry-5']);
  });
});
