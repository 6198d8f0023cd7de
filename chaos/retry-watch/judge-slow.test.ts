import { describe, expect, it } from 'vitest';
import { judgeSlow } from './judge-slow.ts';
import type { Expect } from './judge.ts';

// The 3 s answer rule on made-up arrivals: a hang-up and a redelivery fail at once; a pass needs
// the whole time retry 1 would have taken; a watch that ends earlier reports it not observed.

const E: Expect = {
  causedAt: 0, retries: 2, delaysMs: [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000], tolerance: { pct: 2, minMs: 50 },
  from: 'attempt-end', firstMs: 30_000, quietMs: 10_000, laterCommand: '-', subject: 'x',
};

describe('judgeSlow', () => {
  it('fails a hang-up before the answer and a redelivery after it, at once', () => {
    expect(judgeSlow([{ at: 1_000, eventId: 'evt_1', gaveUpAt: 2_000 }], E, 2_100).check!.message).toMatch(/hung up on event evt_1 \(x\) after 1\.0 s/);
    const again = judgeSlow([{ at: 1_000, eventId: 'evt_1', answeredAt: 4_100 }, { at: 25_000, eventId: 'evt_2' }], E, 25_100);
    expect(again.check!.message).toMatch(/event evt_1 \(x\), answered 200 after 3\.1 s \/ received it again 20\.9 s after the 200 under a new id evt_2/);
  });

  it('passes only once retry 1 would have come, and never passes a watch that ended first', () => {
    const held = [{ at: 1_000, eventId: 'evt_1', answeredAt: 4_000 }];
    expect(judgeSlow(held, E, 60_000).done).toBe(false);
    expect(judgeSlow(held, E, 66_300).check!.status).toBe('passed');
    const cut = judgeSlow(held, E, 30_000, true);
    expect(cut.check!.status).toBe('skipped');
    expect(cut.check!.message).toMatch(/not observed: the watch ended 26\.0 s after the 200/);
  });
});

describe('judgeSlow on a loaded machine', () => {
  it('does not blame the sender for a hang-up that came after this receiver\'s own answer was due', () => {
    const late = judgeSlow([{ at: 1_000, eventId: 'evt_1', gaveUpAt: 6_000 }], E, 6_100);
    expect(late.check!.status).toBe('skipped');
    expect(late.check!.message).toMatch(/hung up after 5\.0 s, when this receiver's own answer, due at 3\.0 s, was late/);
  });

  it('does not blame the sender for a retry after this receiver\'s own 200 went out late (soak seeds 5, 6)', () => {
    const late = judgeSlow([{ at: 1_000, eventId: 'evt_1', answeredAt: 6_500 }, { at: 59_000, eventId: 'evt_1' }], E, 59_100);
    expect(late.check!.status).toBe('skipped');
    expect(late.check!.message).toMatch(/own 200 to event evt_1 \(x\), due 3\.0 s after its arrival, went out after 5\.5 s/);
    // On time, the same retry is the sender's.
    expect(judgeSlow([{ at: 1_000, eventId: 'evt_1', answeredAt: 4_200 }, { at: 59_000, eventId: 'evt_1' }], E, 59_100).check!.status).toBe('failed');
  });
});
