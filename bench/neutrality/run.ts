import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runSeed, type Choices, type SeedResult, type Tier } from './soak.ts';

// The neutrality soak, many seeds in a row (issue 38):
//   node --import tsx bench/neutrality/run.ts --seeds 1-50 [--steps contract,conformance | --steps all]
//        [--tier growth] [--parallel 1] [--out FILE] [--sandbox-arg "--fault NAME"] [--choices mutate]
// Each seed's sandbox plays the implementation `sandbox --choices random --seed N` draws, the gate
// runs with --detect-profile against it, and the verdict, wall time and failing checks go to the
// JSON. The seeds of fixed-seeds.json (once failed) always run first. --steps all is the whole
// gate, as `as-a-user.sh --gate --sandbox-arg "--choices random --seed N"` (about 7 min a seed:
// chaos watches real-time retries); the default, contract and conformance, about 1.5 min a seed.
// --choices mutate runs the shape mutator's seeds instead (`sandbox --choices mutate --seed N`:
// what nobody listed), whose fixed cases are fixed-mutate-seeds.json.

export const FIXED_SEEDS_FILE = new URL('./fixed-seeds.json', import.meta.url);
/** The mutator's seeds kept as fixed cases (the first three are the CI-sized set). */
export const FIXED_MUTATE_SEEDS_FILE = new URL('./fixed-mutate-seeds.json', import.meta.url);

export interface FixedSeed { seed: number; why: string }

export function fixedSeeds(choices: Choices = 'random'): FixedSeed[] {
  return JSON.parse(readFileSync(choices === 'mutate' ? FIXED_MUTATE_SEEDS_FILE : FIXED_SEEDS_FILE, 'utf8')) as FixedSeed[];
}

/** "1-5,9" → [1,2,3,4,5,9]. */
export function parseSeeds(spec: string): number[] {
  return spec.split(',').flatMap((part) => {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!m) throw new Error(`--seeds: expected N, N-M or a comma list of them, got "${part}"`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    return Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);
  });
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      seeds: { type: 'string', default: '1-50' }, steps: { type: 'string', default: 'contract,conformance' },
      tier: { type: 'string', default: 'growth' }, parallel: { type: 'string', default: '1' },
      out: { type: 'string' }, 'sandbox-arg': { type: 'string' }, 'no-fixed': { type: 'boolean', default: false },
      choices: { type: 'string', default: 'random' },
    },
  });
  if (v.choices !== 'random' && v.choices !== 'mutate') throw new Error(`--choices: expected random or mutate, got "${v.choices}"`);
  const choices: Choices = v.choices;
  const seeds = [...new Set([...(v['no-fixed'] ? [] : fixedSeeds(choices).map((f) => f.seed)), ...parseSeeds(v.seeds!)])];
  const steps = v.steps === 'all' ? undefined : v.steps!.split(',');
  const out = resolve(v.out ?? `.lendcheck/neutrality-soak-${choices === 'mutate' ? 'mutate-' : ''}${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const opts = { steps, choices, tier: v.tier as Tier, ...(v['sandbox-arg'] ? { sandboxArgs: v['sandbox-arg'].split(/\s+/) } : {}), ...(steps ? {} : { retryWaitSeconds: 120 }) };
  const results: SeedResult[] = [];
  const write = () => {
    mkdirSync(dirname(out), { recursive: true });
    const passed = results.filter((r) => r.verdict === 'PASS').length;
    writeFileSync(out, JSON.stringify({ kind: 'lendcheck-neutrality-soak', choices, steps: steps ?? 'all', tier: v.tier, sandboxArgs: v['sandbox-arg'] ?? null, seedsRun: results.length, passed, results }, null, 2) + '\n');
  };
  const queue = [...seeds];
  const worker = async () => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      const r = await runSeed(seed, opts);
      results.push(r);
      write();
      const why = r.failures.map((f) => `${f.step}/${f.check}`).join(', ');
      console.log(`seed ${seed}: ${r.verdict} in ${(r.wallMs / 1000).toFixed(0)} s${why ? ` — ${why}` : ''}${r.dir ? ` (${r.dir})` : ''}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(v.parallel)) }, worker));
  write();
  const failed = results.filter((r) => r.verdict !== 'PASS');
  console.log(`neutrality soak: ${results.length - failed.length} of ${results.length} seeds passed; results in ${out}`);
  process.exitCode = failed.length ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: Error) => {
    console.error(`neutrality soak: ${e.message}`);
    process.exitCode = 2;
  });
}
