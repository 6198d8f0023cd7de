// Wall time of a full conformance run against the local (embedded) sandbox, beside a
// baseline measured in the same run:
//   floor      — the same number of plain sequential requests (GET /rates with a key) to a
//                fresh sandbox over the same pooled client: what the HTTP round trips alone cost
//   in-process — the suite's checks run by the runner directly (what the mutant test does)
//   vitest     — the suite through Vitest's Node API (what `lendcheck conformance` does),
//                embedded sandbox start-up and Vitest start-up included
//   no controls — the conformance step of the detect matrix's cell "default, without
//                controls": a target without /v1/sandbox/* controls, conformed with the profile
//                detected from it (detection itself waits a minute for a webhook retry and is
//                not counted). Target: under 30 s. Measured once, after the rounds.
// Each figure is the median of ROUNDS runs, each against a fresh sandbox. Ratios are
// against the floor, and vitest against in-process.
// Run: node --import tsx bench/conformance.ts [rounds]

import { defaultProfile, resolveCall } from '../contract/index.ts';
import { HttpClient } from '../conformance/http.ts';
import { runConformance } from '../conformance/suite/run.ts';
import { runCell } from '../detect/testing/matrix.ts';
import { exampleProfile } from '../examples/profiles/load.ts';
import { startSandboxServer } from '../sandbox/server.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function floor(requests: number): Promise<number> {
  const s = await startSandboxServer({ port: 0, host: '127.0.0.1', profile: defaultProfile, validateResponses: false });
  const key = s.keys.find((k) => k.tier === 'scale')!.key;
  const c = new HttpClient({ baseUrl: s.url });
  const ratesPath = resolveCall(defaultProfile, 'rates.get').path;
  try {
    const t0 = performance.now();
    // The Scale bucket holds 2000; stay inside it so the floor measures HTTP, not the limiter.
    for (let i = 0; i < Math.min(requests, 1900); i++) await c.request({ method: 'GET', path: ratesPath, key });
    const ms = performance.now() - t0;
    return (ms * requests) / Math.min(requests, 1900);
  } finally {
    await c.close();
    await s.close();
  }
}

const inProc: number[] = [];
const viaVitest: number[] = [];
const floors: number[] = [];
let requests = 0;
let verdicts: string[] = [];
for (let r = 0; r < ROUNDS; r++) {
  let t0 = performance.now();
  const a = await runConformance({ inProcess: true, seed: 1 });
  inProc.push(performance.now() - t0);
  requests = Number(a.figures.requests);
  t0 = performance.now();
  const b = await runConformance({ reporter: 'none', seed: 1 });
  viaVitest.push(performance.now() - t0);
  floors.push(await floor(requests));
  verdicts.push(`${a.status}/${b.status} (${a.figures.failed}/${b.figures.failed} failed)`);
}
const f = median(floors);
const i = median(inProc);
const v = median(viaVitest);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(`conformance bench: ${ROUNDS} rounds, ${requests} requests per run, verdicts ${verdicts.join(', ')}`);
console.log(`  floor (plain requests) ${s(f)}   1.00x`);
console.log(`  in-process suite       ${s(i)}   ${(i / f).toFixed(2)}x floor`);
console.log(`  vitest suite           ${s(v)}   ${(v / f).toFixed(2)}x floor, ${(v / i).toFixed(2)}x in-process   (target < 20 s)`);
const cell = await runCell('default', exampleProfile('default'), false);
const failed = cell.conformance?.checks.filter((c) => c.status === 'failed').length ?? 0;
console.log(`  no controls (default)  ${s(cell.conformMs)}   ${cell.conformance?.figures.requests} requests, ${failed} failed   (target < 30 s; detection ${s(cell.detectMs)} before it)`);
process.exit(0);
