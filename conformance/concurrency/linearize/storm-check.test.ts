import { describe, expect, it } from 'vitest';
import { defaultProfile, loadProfile, type Profile } from '../../../contract/index.ts';
import type { FaultSetting } from '../../../sandbox/faults/index.ts';
import { runFamily } from '../testing/proof.ts';

// The judge of the run's storms against the sandbox over real HTTP, with the storms it judges:
// clean (with controls, and without them under every example profile) it passes, sending
// nothing of its own; with a fault that breaks what it models, it fails and its message
// carries the timeline of the answers that conflict.

const ID = 'concurrency.linearizable-ledger';

async function run(opts: { faults?: FaultSetting[]; controls?: boolean; profile?: Profile } = {}) {
  const r = await runFamily({ profile: opts.profile ?? defaultProfile, ...(opts.controls === false ? { controls: false } : {}), ...(opts.faults ? { faults: opts.faults } : {}) });
  return r.checks.find((c) => c.id === ID)!;
}

describe(ID, () => {
  it('passes the clean sandbox, with controls and without them under each example profile, with no request of its own', { timeout: 120_000 }, async () => {
    const runs = await Promise.all([
      run(),
      run({ controls: false }),
      ...['fintech-rest', 'minimal-sandbox', 'strict-gateway'].map((p) => run({ controls: false, profile: loadProfile(`examples/profiles/${p}.json`) })),
    ]);
    for (const c of runs) expect(`${c.status} ${c.message ?? ''}`).toBe('passed ');
    for (const c of runs) expect(c.requests).toBe(0);
    expect(runs[1]!.notes.join('\n')).toMatch(/concurrency\.cancel-once: \d+ operations linearizable/);
    expect(runs[1]!.notes.join('\n')).toMatch(/concurrency\.repay-once: .* not judged: it holds POST position\.repay/);
  });

  it('skips, saying why, when no storm ran before it', { timeout: 30_000 }, async () => {
    const c = (await runFamily({ only: [ID] })).checks[0]!;
    expect(c.status).toBe('skipped');
    expect(c.message).toMatch(/no storm of this run was recorded/);
  });

  // withdraw-race is left to the dedicated storms: it is caught there every run.
  for (const name of ['lend-race', 'cancel-race', 'withdraw-not-debited', 'cancel-double-refund']) {
    it(`fails on ${name}, showing the conflicting answers on a timeline`, { timeout: 60_000 }, async () => {
      const c = await run({ faults: [{ name }], controls: false });
      expect(c.status, c.message ?? '').toBe('failed');
      expect(c.message).toMatch(/client -?\d+ +\[/);
      expect(c.message).toMatch(/USDC/);
    });
  }
});
