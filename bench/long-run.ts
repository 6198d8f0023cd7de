import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { spawnSandbox } from '../sandbox/testing/spawn.ts';
import { connectInspector, inspectorUrl } from './lib/inspector.ts';

// Long-run drill: a partner's mixed load inside its tier for N minutes against a sandbox
// in its own process, one k6 slice per minute. Memory (RSS of the sandbox process) is
// sampled every 5 s; latency comes from each slice's summary. Flat means the fitted
// slope per hour is small next to the mean. RSS alone cannot tell a leak from state or
// from SQLite's page cache filling to its bound, so after every slice (load paused) the
// sandbox's heap is read after a full GC through its inspector (loopback, random port),
// beside the state its database holds then. Usage:
//   node --import tsx bench/long-run.ts [--minutes 30] [--tier growth] [--json FILE]

const arg = (n: string, d: string) => {
  const i = process.argv.indexOf(`--${n}`);
  return i > 0 ? process.argv[i + 1]! : d;
};
const MINUTES = Number(arg('minutes', '30'));
const TIER = arg('tier', 'growth');
const bin = fileURLToPath(new URL('../cli/bin.js', import.meta.url));

/** Least-squares slope of y over x. */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

interface State {
  positions: number;
  resting: number;
  events: number;
}

/** What the sandbox holds, read from its file (WAL readers do not block the writer). */
function state(dbFile: string): State {
  const db = new Database(dbFile, { readonly: true });
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get() as number;
    return {
      positions: one('SELECT count(*) FROM positions'),
      resting: one("SELECT count(*) FROM positions WHERE status = 'pending'"),
      events: one('SELECT count(*) FROM outbox_events'),
    };
  } finally {
    db.close();
  }
}

function rssMb(pid: number): number {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'lc-long-'));
  const dbFile = join(dir, 'sandbox.db');
  const proc = await spawnSandbox(['--port', '0', '--db', dbFile], {
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:0`.trim() },
  });
  const { child: sb, url, exited } = proc;
  const wsUrl = inspectorUrl(proc.stderr());
  if (!wsUrl) throw new Error(`the sandbox printed no inspector URL: ${proc.stderr()}`);
  const inspector = await connectInspector(wsUrl);
  const t0 = Date.now();
  const heaps: Array<{ min: number; liveHeapMb: number } & State> = [];
  const mem: Array<{ min: number; rssMb: number }> = [];
  const sampler = setInterval(() => mem.push({ min: (Date.now() - t0) / 60_000, rssMb: rssMb(sb.pid!) }), 5_000);
  const slices: Array<{ min: number; p50: number; p99: number; reqs: number; verdict: number }> = [];
  try {
    for (let m = 0; m < MINUTES; m++) {
      const rd = join(dir, `slice-${m}`);
      // Async, not spawnSync: the memory sampler's timer must keep firing during the slice.
      const r = await new Promise<{ status: number | null }>((resolve) => {
        const k = spawn(process.execPath, [bin, 'load', '--scenario', 'mixed', '--tier', TIER, '--base-url', url, '--report-dir', rd], {
          env: { ...process.env, MIXED_SECONDS: '55', LENDCHECK_API_KEY: `ck_test_partner_a_${TIER}` },
          stdio: 'ignore',
        });
        k.once('exit', (status) => resolve({ status }));
      });
      const summaryFile = readdirSync(rd).find((f) => /summary.*\.json$/.test(f));
      const s = summaryFile ? (JSON.parse(readFileSync(join(rd, summaryFile), 'utf8')) as { metrics: Record<string, Record<string, number>> }) : undefined;
      const d = s?.metrics.http_req_duration ?? {};
      slices.push({ min: (Date.now() - t0) / 60_000, p50: d.med ?? NaN, p99: d['p(99)'] ?? NaN, reqs: s?.metrics.http_reqs?.count ?? 0, verdict: r.status ?? -1 });
      const heap = await inspector.heapAfterGc();
      heaps.push({ min: (Date.now() - t0) / 60_000, liveHeapMb: +(heap.heapUsed / 2 ** 20).toFixed(2), ...state(dbFile) });
      console.error(`minute ${m + 1}/${MINUTES}: p50 ${d.med?.toFixed(2)} ms p99 ${d['p(99)']?.toFixed(2)} ms, ${s?.metrics.http_reqs?.count} requests, rss ${mem.at(-1)?.rssMb.toFixed(0)} MB, heap after GC ${heaps.at(-1)!.liveHeapMb} MB, ${heaps.at(-1)!.positions} positions, k6 exit ${r.status}`);
    }
  } finally {
    clearInterval(sampler);
    inspector.close();
    sb.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const out = {
    minutes: MINUTES,
    tier: TIER,
    rss: { meanMb: +mean(mem.map((x) => x.rssMb)).toFixed(1), slopeMbPerHour: +(slope(mem.map((x) => x.min), mem.map((x) => x.rssMb)) * 60).toFixed(2) },
    p50: { meanMs: +mean(slices.map((s) => s.p50)).toFixed(2), slopeMsPerHour: +(slope(slices.map((s) => s.min), slices.map((s) => s.p50)) * 60).toFixed(3) },
    p99: { meanMs: +mean(slices.map((s) => s.p99)).toFixed(2), slopeMsPerHour: +(slope(slices.map((s) => s.min), slices.map((s) => s.p99)) * 60).toFixed(3) },
    // Heap after GC: a slope that is small, and explained by the state stored, is no leak.
    heapAfterGc: {
      meanMb: +mean(heaps.map((h) => h.liveHeapMb)).toFixed(2),
      slopeMbPerHour: +(slope(heaps.map((h) => h.min), heaps.map((h) => h.liveHeapMb)) * 60).toFixed(3),
      kbPerPosition: heaps.length > 1 && heaps.at(-1)!.positions > heaps[0]!.positions
        ? +(((heaps.at(-1)!.liveHeapMb - heaps[0]!.liveHeapMb) * 1024) / (heaps.at(-1)!.positions - heaps[0]!.positions)).toFixed(3)
        : null,
    },
    heaps,
    slices,
  };
  console.log(JSON.stringify(out, null, 2));
  const jf = arg('json', '');
  if (jf) writeFileSync(jf, JSON.stringify(out, null, 2));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
