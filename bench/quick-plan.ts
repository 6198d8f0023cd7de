import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { QUICK_CHECKS } from '../conformance/plans.ts';
import { run, soakKeys, startSandbox } from './neutrality/soak.ts';

// `conformance --plan quick` as a user runs it (issue 48): the sandbox plays the implementation
// `--choices random --seed N` draws, limits on, no controls, Growth keys; `profile detect`, then
// `conformance --profile detected.json --plan quick`, through the CLI. Every concurrency and
// money fault mode must exit 1 with a check the plan says catches it failed; the same seed clean
// must exit 0; each run must send at most the plan's 150 requests.
//   node --import tsx bench/quick-plan.ts [--seeds 1] [--out FILE] [--only fault,fault]
// A race is caught only when the storm overlaps inside the fault's window: a miss runs once more,
// and the JSON says on which try.

const catchersOf = (fault: string) => QUICK_CHECKS.filter((c) => c.catches.includes(fault)).map((c) => c.id);
const FAULTS = [...new Set(QUICK_CHECKS.flatMap((c) => c.catches))];

interface Outcome { seed: number; fault: string | null; exitCode: number | null; requests: number; wallMs: number; failed: string[]; ok: boolean; why: string; tries: number }

async function once(seed: number, fault: string | null): Promise<Omit<Outcome, 'tries'>> {
  const dir = mkdtempSync(join(tmpdir(), `lendcheck-quick-${seed}-${fault ?? 'clean'}-`));
  const { keys, store } = soakKeys('growth');
  const t0 = Date.now();
  const sb = await startSandbox(seed, dir, store, fault ? ['--fault', fault] : []);
  let exitCode: number | null = null;
  let requests = 0;
  let failed: string[] = [];
  let why = '';
  // The run's files go only once the sandbox has stopped (it writes its log as it exits).
  let done = () => {};
  try {
    const base = ['--base-url', `${sb.url}/v1`, '--api-key', keys.a, '--api-key-2', keys.b];
    const profile = join(dir, 'detected.json');
    const d = run(['profile', 'detect', ...base, '--out', profile], join(dir, 'detect.log'));
    if ((await d.done) !== 0) throw new Error(`profile detect failed: ${d.out().trim().split('\n').pop()}`);
    const t1 = Date.now();
    const c = run(['conformance', ...base, '--profile', profile, '--plan', 'quick', '--report-dir', join(dir, 'r')], join(dir, 'conformance.log'));
    exitCode = await c.done;
    const wallMs = Date.now() - t1;
    const result = JSON.parse(readFileSync(join(dir, 'r', 'conformance.json'), 'utf8')) as { summary: object; checks: Array<{ id: string; status: string; requests?: number }> };
    requests = result.checks.reduce((n, k) => n + (k.requests ?? 0), 0);
    failed = result.checks.filter((k) => k.status === 'failed').map((k) => k.id);
    const want = fault ? catchersOf(fault) : [];
    const ok = (fault ? exitCode === 1 && failed.some((id) => want.includes(id)) : exitCode === 0) && requests <= 150;
    why = fault ? `expected exit 1 with one of ${want.join(', ')} failed / received exit ${exitCode}, failed: ${failed.join(', ') || 'none'}` : `expected exit 0 / received exit ${exitCode}, failed: ${failed.join(', ') || 'none'}`;
    if (requests > 150) why += `; ${requests} requests, over the plan's 150`;
    if (ok) done = () => rmSync(dir, { recursive: true, force: true });
    return { seed, fault, exitCode, requests, wallMs, failed, ok, why: ok ? `${requests} requests, exit ${exitCode}` : `${why} (${dir})` };
  } catch (e) {
    return { seed, fault, exitCode, requests, wallMs: Date.now() - t0, failed, ok: false, why: `${(e as Error).message} (${dir})` };
  } finally {
    await sb.stop();
    done();
  }
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({ options: { seeds: { type: 'string', default: '1' }, out: { type: 'string' }, only: { type: 'string' } } });
  const faults = v.only ? v.only.split(',') : FAULTS;
  const out: Outcome[] = [];
  for (let seed = 1; seed <= Number(v.seeds); seed++) {
    for (const fault of [null, ...faults]) {
      let r = await once(seed, fault);
      let tries = 1;
      if (!r.ok && fault) {
        r = await once(seed, fault);
        tries = 2;
      }
      out.push({ ...r, tries });
      console.log(`${r.ok ? 'ok  ' : 'MISS'} seed ${seed} ${fault ?? 'clean'}: ${r.why} (conformance ${r.wallMs} ms${tries > 1 ? ', second try' : ''})`);
    }
  }
  const file = v.out ?? join('bench', `quick-plan-${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify({ kind: 'quick-plan', controls: false, tier: 'growth', ok: out.every((r) => r.ok), results: out }, null, 2)}\n`);
  console.log(`${out.filter((r) => r.ok).length} of ${out.length} as expected; written to ${file}`);
  process.exitCode = out.every((r) => r.ok) ? 0 : 1;
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exitCode = 2;
});
