import { defaultProfile } from '../contract/index.ts';
import { EXAMPLE_PROFILES, exampleProfile } from '../examples/profiles/load.ts';
import { CAUGHT_BY, CAUGHT_ELSEWHERE, runFamily } from '../conformance/concurrency/testing/proof.ts';

// The figures of the issue's closing note, measured: clean runs of the whole family against
// the sandbox (default profile with controls, then each example profile without) out of N,
// and for each fault how many of N runs its check caught it, with the family's time.
//   npx tsx bench/concurrency-measure.ts [N=20] [gapMs]
// With gapMs, only the faults are run, each race given that gap instead of its default.

import { FAULTS } from '../sandbox/faults/index.ts';

//   npx tsx bench/concurrency-measure.ts N drained[:tier]  runs each fault's check (and the
// model walk for the money faults) with both partners on one key of the tier (growth by default),
// partner 1's bucket emptied first: the budget must wait for room instead of skipping.
const n = Number(process.argv[2] ?? 20);
const drainedArg = /^drained(?::(\w+))?$/.exec(process.argv[3] ?? '');
const drainedTier = drainedArg ? ((drainedArg[1] ?? 'growth') as 'starter' | 'growth' | 'scale') : undefined;
const gapMs = process.argv[3] === undefined || drainedTier ? undefined : Number(process.argv[3]);

if (drainedTier) {
  for (const [fault, check] of [...Object.entries(CAUGHT_BY), ...Object.entries(CAUGHT_ELSEWHERE)]) {
    let caught = 0;
    const skips: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const r = await runFamily({ faults: [{ name: fault }], only: [check], drainedTier, controls: false });
      const c = r.checks.find((x) => x.id === check);
      if (c?.status === 'failed') caught++;
      else if (c?.status === 'skipped') skips.push(c.message ?? '');
    }
    console.log(`caught ${caught}/${n}  ${fault} by ${check}, ${drainedTier} key drained first, no controls (${Math.round((performance.now() - t0) / n / 100) / 10} s a run)${skips.length ? `; skipped: ${skips[0]}` : ''}`);
  }
  let clean = 0;
  for (let i = 0; i < n; i++) if ((await runFamily({ only: ['concurrency.*', 'model.*'], drainedTier, controls: false })).checks.every((c) => c.status !== 'failed')) clean++;
  console.log(`clean ${clean}/${n}  concurrency.* and model.* on a drained ${drainedTier} key, no controls`);
  process.exit(0);
}
const targets = [
  { name: 'default profile, controls', profile: defaultProfile, controls: true },
  ...EXAMPLE_PROFILES.map((p) => ({ name: `${p}, no controls`, profile: exampleProfile(p), controls: false })),
];

for (const t of gapMs === undefined ? targets : []) {
  let clean = 0;
  const times: number[] = [];
  const failures: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await runFamily({ profile: t.profile, controls: t.controls });
    const bad = r.checks.filter((c) => c.status === 'failed');
    if (!bad.length) clean++;
    else failures.push(...bad.map((c) => `${c.id}: ${c.message}`));
    times.push(r.durationMs);
  }
  times.sort((a, b) => a - b);
  console.log(`clean ${clean}/${n}  ${t.name}  family median ${times[Math.floor(n / 2)]} ms, max ${times[n - 1]} ms`);
  for (const f of failures.slice(0, 5)) console.log(`  ${f}`);
}

for (const [fault, check] of Object.entries(CAUGHT_BY)) {
  let caught = 0;
  for (let i = 0; i < n; i++) {
    const takesGap = gapMs !== undefined && FAULTS.get(fault)!.config.safeParse({ gapMs }).success;
    const r = await runFamily({ faults: [{ name: fault, ...(takesGap ? { config: { gapMs } } : {}) }], only: [check] });
    if (r.checks.find((c) => c.id === check)?.status === 'failed') caught++;
  }
  console.log(`caught ${caught}/${n}  ${fault} by ${check}${gapMs !== undefined ? ` (gapMs ${gapMs})` : ''}`);
}
