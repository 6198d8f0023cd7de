import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../contract/index.ts';
import { FAULTS } from '../../../sandbox/faults/index.ts';
import { CAUGHT_BY, CAUGHT_ELSEWHERE, runFamily } from './proof.ts';

// Proof that the concurrency family catches real races: the sandbox given each fault
// (sandbox/faults/) fails the named check, every time; each is run RUNS times here (and 20
// times by measure.ts). The gap is the faults' default, 5 ms: the storms send 8 requests over
// connections opened just before, so they arrive within about 1–4 ms of each other.

const RUNS = 2;

describe('the concurrency family catches every race fault of the sandbox', () => {
  it('has a catching check for every registered fault', () => {
    expect([...Object.keys(CAUGHT_BY), ...Object.keys(CAUGHT_ELSEWHERE)].sort()).toEqual([...FAULTS.keys()].sort());
  });

  for (const [fault, check] of Object.entries(CAUGHT_BY)) {
    it(`${fault}: ${check} fails, naming the operation and the money, ${RUNS} runs of ${RUNS}`, async () => {
      for (let i = 0; i < RUNS; i++) {
        const r = await runFamily({ faults: [{ name: fault }], only: [check] });
        const c = r.checks.find((x) => x.id === check)!;
        expect(c.status, `run ${i + 1}: ${c.message ?? ''}`).toBe('failed');
        expect(c.message).toMatch(/accepted|lost|appeared|lists|filled|read/);
        // The storm's history is shown as a timeline.
        expect(c.notes.join('\n')).toMatch(/history of the storm \(\d+ operations\):\n#\d+ \|/);
      }
    }, 60_000);
  }

  it('partner-leak is caught where an unknown user is refused as position_not_found (errors.unknownUser), a correct target passes', async () => {
    const profile = parseProfile({ errors: { unknownUser: 'position_not_found' } });
    const only = ['concurrency.partner-isolation'];
    const bad = (await runFamily({ faults: [{ name: 'partner-leak' }], only, profile })).checks[0]!;
    expect(bad.status, bad.message ?? '').toBe('failed');
    const good = (await runFamily({ only, profile })).checks[0]!;
    expect(good.status, good.message ?? '').toBe('passed');
  }, 60_000);

  it('withdraw-race reads like the issue: "… withdrawals of … USDC accepted from … available: −…"', async () => {
    const r = await runFamily({ faults: [{ name: 'withdraw-race' }], only: ['concurrency.withdraw-overcommit'] });
    expect(r.checks[0]!.message).toMatch(/\d+ withdrawals of \d+ USDC accepted from \d+ available: −\d+/);
  }, 30_000);
});
