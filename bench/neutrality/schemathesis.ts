import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runSchemathesis } from '../../conformance/schemathesis/run.ts';
import { detectProfile } from '../../detect/index.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import { randomProfile } from '../../sandbox/choices/random.ts';
import { mutatedProfile } from '../../sandbox/choices/mutate-profile.ts';
import { shapeMutatorPlugin } from '../../sandbox/mutate/plugin.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { parseSeeds } from './run.ts';

// Issue 38's Schemathesis property over seeds: for each seed the sandbox plays the
// implementation `--choices random --seed N` draws, without controls; `profile detect` reads a
// profile from it; Schemathesis (every check, all four phases) runs against it with the OpenAPI
// document exported under that DETECTED profile. 0 failures means the document says no more
// than what detection learned the target does (issue 38 part 4). Rate limits are off, as in
// conformance/schemathesis/schemathesis.test.ts: a 429 is documented, but it would starve the
// stateful phase.
//   node --import tsx bench/neutrality/schemathesis.ts --seeds 1-5 [--out FILE] [--max-examples 10] [--choices mutate]
// --choices mutate: the shape mutator's seeds (`sandbox --choices mutate --seed N`: its profile and
// its reshaped success bodies) instead of the random draw (issue 47, part 5).

export interface SchemathesisSeed {
  seed: number;
  verdict: 'PASS' | 'FAIL' | 'ERROR';
  wallMs: number;
  /** Detection's share of wallMs. */
  detectMs: number;
  figures: Record<string, unknown>;
  failures: { check: string; message: string }[];
}

export async function schemathesisSeed(seed: number, maxExamples = 10, choices: 'random' | 'mutate' = 'random'): Promise<SchemathesisSeed> {
  const t0 = performance.now();
  const profile = choices === 'mutate' ? mutatedProfile(seed) : randomProfile(seed);
  // The mutator last, so innermost: it reshapes only what the route answered (sandbox/start.ts).
  const plugins = [...defaultPlugins({ rateLimits: false }), ...(choices === 'mutate' ? [shapeMutatorPlugin(seed)] : [])];
  const server = await startSandboxServer({ port: 0, host: '127.0.0.1', profile, controls: false, plugins });
  let detectMs = 0;
  try {
    const key = (partner: string) => server.keys.find((k) => k.partnerId === partner)!.key;
    // The budget the gate's detection gets from a Growth key with limits on (raised from 100 to
    // 220 by its X-RateLimit-Remaining); with limits off no header raises it, and 100 ends
    // before the analytics periods are read (seed 7: the document then offered 30d, refused).
    const detected = await detectProfile({ baseUrl: server.url, apiKey: key('partner_a'), apiKey2: key('partner_b'), maxRequests: 220 });
    detectMs = Math.round(performance.now() - t0);
    const part = await runSchemathesis({ baseUrl: server.url, apiKey: key('partner_a'), apiKey2: key('partner_b'), profile: detected.merged, controls: false, seed: 7, maxExamples });
    const failures = part.checks.filter((c) => c.status === 'failed').map((c) => ({ check: c.id, message: (c.message ?? '').slice(0, 1500) }));
    const verdict = failures.length === 0 && part.status === 'passed' && part.figures.errors === 0 ? 'PASS' : 'FAIL';
    return { seed, verdict, wallMs: Math.round(performance.now() - t0), detectMs, figures: part.figures, failures };
  } catch (e) {
    return { seed, verdict: 'ERROR', wallMs: Math.round(performance.now() - t0), detectMs, figures: {}, failures: [{ check: '(run)', message: (e as Error).message }] };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({ options: { seeds: { type: 'string', default: '1-5' }, out: { type: 'string' }, 'max-examples': { type: 'string', default: '10' }, choices: { type: 'string', default: 'random' } } });
  if (v.choices !== 'random' && v.choices !== 'mutate') throw new Error(`--choices: expected random or mutate, got "${v.choices}"`);
  const choices = v.choices;
  const out = resolve(v.out ?? `.lendcheck/neutrality-schemathesis-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const results: SchemathesisSeed[] = [];
  for (const seed of parseSeeds(v.seeds!)) {
    const r = await schemathesisSeed(seed, Number(v['max-examples']), choices);
    results.push(r);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ kind: 'lendcheck-neutrality-schemathesis', choices, checks: 'all', phases: 'all', rateLimits: false, seedsRun: results.length, passed: results.filter((x) => x.verdict === 'PASS').length, results }, null, 2)}\n`);
    const f = r.figures as { cases?: number; operations?: number; uniqueFailures?: number };
    console.log(`seed ${seed}: ${r.verdict} in ${(r.wallMs / 1000).toFixed(0)} s (detect ${(r.detectMs / 1000).toFixed(0)} s); ${f.cases ?? '?'} cases, ${f.operations ?? '?'} operations${r.failures.length ? ` — ${r.failures.map((x) => x.check).join(', ')}` : ''}`);
  }
  const failed = results.filter((r) => r.verdict !== 'PASS').length;
  console.log(`neutrality schemathesis: ${results.length - failed} of ${results.length} seeds with 0 failures; results in ${out}`);
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: Error) => {
    console.error(`neutrality schemathesis: ${e.message}`);
    process.exitCode = 2;
  });
}
