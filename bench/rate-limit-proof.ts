// The rate-limit proof of issue 33: the whole default suite, in its default order, through the
// CLI as a user runs it, against the sandbox with rate limits ON and only keys of one tier (two
// partners), under each example profile, with and without controls; and each race and money
// fault of the sandbox at one tier. Per run: the verdict, skips the rate limit caused (a
// harness defect now: the budget waits instead), requests, waiting and wall time.
//   node --import tsx bench/rate-limit-proof.ts [--tiers growth,scale] [--profiles default,examples/profiles/fintech-rest.json]
//        [--controls on,off] [--faults all|none|a,b] [--fault-tier growth] [--fault-controls off|on] [--runs 1] [--fault-runs 1] [--out lendcheck-reports/bench]
// Without controls, the profile is the one `profile detect` wrote for that target (detected once
// per sandbox start, as a user would). Runs take minutes (Starter: about 15 per run).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { routePath } from '../contract/fill-path.ts';
import { faultNames } from '../sandbox/faults/index.ts';

const { values: a } = parseArgs({
  options: {
    tiers: { type: 'string', default: 'growth' },
    profiles: { type: 'string', default: 'default' },
    controls: { type: 'string', default: 'off' },
    faults: { type: 'string', default: 'none' },
    'fault-tier': { type: 'string', default: 'growth' },
    'fault-controls': { type: 'string', default: 'off' },
    runs: { type: 'string', default: '1' },
    'fault-runs': { type: 'string', default: '1' },
    out: { type: 'string', default: 'lendcheck-reports/bench' },
    port: { type: 'string', default: '4980' },
  },
});
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
const port = Number(a.port);
const base = `http://127.0.0.1:${port}/v1`;

function run(args: string[], log: string): Promise<number> {
  return new Promise((res) => {
    const p = spawn('node', ['cli/bin.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => chunks.push(c));
    p.stderr.on('data', (c: Buffer) => chunks.push(c));
    p.on('close', (code) => {
      writeFileSync(log, Buffer.concat(chunks));
      res(code ?? 1);
    });
  });
}

async function up(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      await fetch(`${base}${routePath('public.markets')}`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`the sandbox did not start on ${base}`);
}

export interface Row {
  tier: string;
  profile: string;
  controls: boolean;
  fault?: string;
  exit: number;
  status: string;
  passed: number;
  failed: number;
  skipped: number;
  /** Skips whose reason is the rate limit (429, or no room within --max-wait). */
  rateSkips: string[];
  failedIds: string[];
  requests: number;
  waitS: number;
  overspent429: number;
  wallS: number;
}

async function once(tier: string, profile: string, controls: boolean, fault?: string): Promise<Row> {
  const d = mkdtempSync(join(tmpdir(), 'lendcheck-proof-'));
  const ka = `ck_test_proof_a_${tier}`;
  const kb = `ck_test_proof_b_${tier}`;
  writeFileSync(join(d, 'keys.json'), JSON.stringify([{ key: ka, partnerId: 'partner_a', tier }, { key: kb, partnerId: 'partner_b', tier }]));
  const args = ['sandbox', '--port', String(port), '--db', join(d, 'sb.db'), '--keys', join(d, 'keys.json'), '--no-console'];
  if (!controls) args.push('--no-controls');
  if (profile !== 'default') args.push('--profile', profile);
  if (fault) args.push('--fault', fault);
  const sb = spawn('node', ['cli/bin.js', ...args], { stdio: 'ignore' });
  try {
    await up();
    const t0 = performance.now();
    let prof = profile === 'default' ? undefined : profile;
    if (!controls) {
      const rc = await run(['profile', 'detect', '--base-url', base, '--api-key', ka, '--api-key-2', kb, '--out', join(d, 'detected.json')], join(d, 'detect.log'));
      if (rc !== 0) throw new Error(`profile detect failed (${rc}); see ${join(d, 'detect.log')}`);
      prof = join(d, 'detected.json');
    }
    const exit = await run(['conformance', '--base-url', base, '--api-key', ka, '--api-key-2', kb, ...(prof ? ['--profile', prof] : []), '--report-dir', join(d, 'r'), '--reporter', 'dot'], join(d, 'conformance.log'));
    const wallS = Math.round((performance.now() - t0) / 100) / 10;
    let doc: { part: { status: string; figures: Record<string, number>; checks: Array<{ id: string; status: string; message?: string }> } } | undefined;
    try {
      doc = JSON.parse(readFileSync(join(d, 'r', 'conformance.json'), 'utf8'));
    } catch {
      doc = undefined;
    }
    const p = doc?.part;
    const f = p?.figures ?? {};
    const row: Row = {
      tier, profile, controls, ...(fault ? { fault } : {}), exit, status: p?.status ?? `no verdict (exit ${exit})`,
      passed: f.passed ?? 0, failed: f.failed ?? 0, skipped: f.skipped ?? 0,
      rateSkips: (p?.checks ?? []).filter((c) => c.status === 'skipped' && /429|rate limit|--max-wait/i.test(c.message ?? '')).map((c) => `${c.id}: ${c.message}`),
      failedIds: (p?.checks ?? []).filter((c) => c.status === 'failed').map((c) => c.id),
      requests: f.requests ?? 0, waitS: f.rateLimitWaitS ?? 0, overspent429: f.overspent429 ?? 0, wallS,
    };
    if (!p) row.failedIds.push(`(see ${d})`);
    else rmSync(d, { recursive: true, force: true });
    return row;
  } finally {
    sb.kill();
    await new Promise((r) => sb.once('exit', r));
  }
}

const rows: Row[] = [];
mkdirSync(a.out!, { recursive: true });
const outFile = join(a.out!, 'rate-limit-proof.json');
const line = (r: Row) =>
  `${r.tier.padEnd(7)} ${r.profile.split('/').pop()!.padEnd(18)} controls ${r.controls ? 'on ' : 'off'} ${(r.fault ?? '-').padEnd(22)} ${r.status.padEnd(7)} ${r.passed}/${r.failed}/${r.skipped} rate-skips ${r.rateSkips.length} requests ${r.requests} wait ${r.waitS} s 429s ${r.overspent429} wall ${r.wallS} s${r.failedIds.length ? ` failed: ${r.failedIds.join(', ')}` : ''}`;
const record = (r: Row) => {
  rows.push(r);
  console.log(line(r));
  for (const s of r.rateSkips) console.log(`    rate-limit skip: ${s}`);
  writeFileSync(outFile, JSON.stringify(rows, null, 2));
};
for (const tier of list(a.tiers!)) for (const profile of list(a.profiles!)) for (const c of list(a.controls!)) for (let i = 0; i < Number(a.runs); i++) record(await once(tier, profile, c === 'on'));
const faults = a.faults === 'all' ? faultNames() : a.faults === 'none' ? [] : list(a.faults!);
for (const fault of faults) for (let i = 0; i < Number(a['fault-runs']); i++) record(await once(a['fault-tier']!, 'default', a['fault-controls'] === 'on', fault));
if (faults.length) {
  console.log('\nfaults caught (runs that ended FAILED):');
  for (const fault of faults) {
    const rs = rows.filter((r) => r.fault === fault);
    console.log(`  ${fault}: ${rs.filter((r) => r.status === 'failed').length} of ${rs.length}`);
  }
}
console.log(`rows in ${outFile}`);
