import { defaultProfile } from '../../contract/index.ts';
import { CAUGHT_BY, EXAMPLE_PROFILES, exampleProfile, runFamily } from './proof.ts';

// The figures of the issue's closing note, measured: clean runs of the whole family against
// the sandbox (default profile with controls, then each example profile without) out of N,
// and for each fault how many of N runs its check caught it, with the family's time.
//   npx tsx conformance/concurrency/measure.ts [N=20] [gapMs]
// With gapMs, only the faults are run, each race given that gap instead of its default.

import { FAULTS } from '../../sandbox/faults/index.ts';

const n = Number(process.argv[2] ?? 20);
const gapMs = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
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
