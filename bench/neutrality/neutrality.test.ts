import { describe, expect, it } from 'vitest';
import { fixedSeeds } from './run.ts';
import { runSeed, type Choices } from './soak.ts';

// lendcheck's neutrality as a property, in CI: against the sandbox playing three drawn
// implementations (`sandbox --choices random --seed N`, the seeds that once failed,
// fixed-seeds.json), no controls, limits on, a key per tier, `gate --detect-profile` over
// the steps below must PASS. A failure names the checks that judged by a choice the
// spec leaves open. Main keys of the Scale tier keep the rate-limit pacing short (the soak, bench/neutrality/run.ts,
// runs Growth keys and the whole gate). Measured: see docs/conformance.md, "Neutrality soak".

// Both kinds of drawn implementation run, three seeds each: the curated choices (fixed-seeds.json) and
// the shape mutator's, which draws what nobody listed (fixed-mutate-seeds.json; issue 47 asks for 3 in
// CI). LENDCHECK_NEUTRALITY_CHOICES=random or =mutate runs one kind only.
const ONLY = process.env.LENDCHECK_NEUTRALITY_CHOICES;
const KINDS: Choices[] = ONLY === 'mutate' || ONLY === 'random' ? [ONLY] : ['random', 'mutate'];
const SEEDS = KINDS.flatMap((choices) => fixedSeeds(choices).slice(0, 3).map((s) => ({ ...s, choices })));
// The steps each seed runs. By default profile detection and the contract step: 26 s for the three
// seeds at once (measured at load average ~15 on 2 cores). LENDCHECK_NEUTRALITY_STEPS=contract,conformance
// adds the conformance suite: over 5 min for the three under load ~30 here, past CI's budget, so it is
// the soak's (bench/neutrality/run.ts) and opt-in here.
const STEPS = (process.env.LENDCHECK_NEUTRALITY_STEPS ?? 'contract').split(',');

describe.concurrent('neutrality: gate --detect-profile passes against drawn implementations', () => {
  for (const { seed, why, choices } of SEEDS) {
    it(`${choices} seed ${seed} (kept because: ${why.slice(0, 60)}…)`, { timeout: 330_000 }, async () => {
      const r = await runSeed(seed, { steps: STEPS, tier: 'scale', timeoutMs: 300_000, choices });
      const failed = r.failures.map((f) => `${f.step}/${f.check}: ${f.message.slice(0, 300)}`);
      expect(failed, `seed ${seed}: ${r.verdict} (run kept in ${r.dir})`).toEqual([]);
      expect(r.verdict, `seed ${seed}: exit ${r.exitCode}, run kept in ${r.dir}`).toBe('PASS');
    });
  }
});

// A partner with only a Starter key: detection keeps to the key's burst (100 requests), so many
// options stay undetected, and what the gate then asserts must still be only what the profile knows.
// Mutator seeds 12 and 13 failed the contract step so (the webhook list and delete, the shared
// order book's bodies; issue 47, the Starter soak in docs/conformance.md); seed 12 runs here.
describe('neutrality under a Starter budget', () => {
  const seed = fixedSeeds('mutate').find((s) => s.seed === 12);
  it.skipIf(!seed || (ONLY !== undefined && ONLY !== 'mutate'))('mutate seed 12 with Starter main keys: detection within 100 requests, then the contract step', { timeout: 330_000 }, async () => {
    const r = await runSeed(12, { steps: STEPS, tier: 'starter', timeoutMs: 300_000, choices: 'mutate' });
    const failed = r.failures.map((f) => `${f.step}/${f.check}: ${f.message.slice(0, 300)}`);
    expect(failed, `seed 12 (Starter): ${r.verdict} (run kept in ${r.dir})`).toEqual([]);
    expect(r.verdict, `seed 12 (Starter): exit ${r.exitCode}, run kept in ${r.dir}`).toBe('PASS');
  });
});
