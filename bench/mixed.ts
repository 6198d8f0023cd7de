// Benchmark (not a test): k6's mixed scenario (scenarios/mixed.ts: reads, list pages, lends,
// borrows, repays, cancels, withdrawals, patches, market data, public data) against
//   - the sandbox in its default configuration (`lendcheck sandbox --metrics`: rate limits on,
//     metrics on, so no read cache), its requests rotating over a pool of Scale keys of one
//     partner so no tier caps the run;
//   - the same sandbox of another checkout (--against DIR, e.g. a git worktree of the commit
//     before a change), same setup;
//   - a bare node:http handler answering every path with one fixed JSON body (Node's ceiling);
// one after another in one run, each at the same arrival rate for --seconds, and reports
// requests/s and p99 per endpoint (from k6's per-request points, tagged by endpoint id).
//
//   node --import tsx bench/mixed.ts [--rate 400] [--seconds 20] [--keys 200] [--against DIR | --against-ref REF] [--json FILE]
//
// --against-ref REF checks REF out into a temporary git worktree (node_modules linked from
// this checkout) and measures its sandbox as --against would; the worktree is removed after.
//
// Loopback only, bounded in time (k6's own scenario duration plus setup).

import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runK6 } from './lib/k6.ts';
import { BENCH_KEY, poolKeys } from './lib/key-pool.ts';
import { stopChild } from './lib/child.ts';
import { checkoutRef } from './lib/worktree.ts';

const SELF = fileURLToPath(import.meta.url);
const ROOT = join(SELF, '..', '..');
const SCRIPT = join(ROOT, 'scenarios', 'mixed.ts');
const SERVE = join(ROOT, 'bench', 'sandbox-http.ts');

export interface EndpointFigures {
  requests: number;
  rps: number;
  p99: number;
  /** Answers by status. */
  statuses: Record<string, number>;
}

/** Per-endpoint figures from k6's `--out json` points (one JSON object a line). */
export async function figuresFromPoints(file: string, seconds: number): Promise<Record<string, EndpointFigures>> {
  const durations = new Map<string, number[]>();
  const statuses = new Map<string, Record<string, number>>();
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (!line.includes('"http_req_duration"') || !line.includes('"Point"')) continue;
    const p = JSON.parse(line) as { type: string; metric: string; data: { value: number; tags?: Record<string, string> } };
    if (p.type !== 'Point' || p.metric !== 'http_req_duration') continue;
    const e = p.data.tags?.endpoint ?? '(untagged)';
    // Setup's requests are not the mix: k6 tags them with the setup group.
    if (p.data.tags?.group === '::setup') continue;
    (durations.get(e) ?? durations.set(e, []).get(e)!).push(p.data.value);
    const s = statuses.get(e) ?? statuses.set(e, {}).get(e)!;
    const st = p.data.tags?.status ?? '?';
    s[st] = (s[st] ?? 0) + 1;
  }
  const out: Record<string, EndpointFigures> = {};
  for (const [e, d] of durations) {
    d.sort((a, b) => a - b);
    out[e] = { requests: d.length, rps: d.length / seconds, p99: d[Math.min(d.length - 1, Math.floor(0.99 * d.length))]!, statuses: statuses.get(e)! };
  }
  return out;
}

/** Every path answered 200 with one body that carries what the mix reads back (an id, an active status, a list page). */
function startBare(): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ positionId: 'bare-1', status: 'active', positions: [], hasMore: false });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

function startSandbox(root: string, db: string, keys: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE, '--serve', 'sandbox', '--db', db, '--root', root, '--plugins', 'default,metrics'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, LENDCHECK_BENCH_KEYS: String(keys) },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /URL (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`sandbox (${root}) exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '400' },
      seconds: { type: 'string', default: '20' },
      keys: { type: 'string', default: '200' },
      against: { type: 'string' },
      'against-ref': { type: 'string' },
      json: { type: 'string' },
    },
  });
  const rate = Math.min(20_000, Number(values.rate));
  const seconds = Math.min(120, Number(values.seconds));
  const nKeys = Math.max(1, Math.min(5000, Number(values.keys)));
  const pool = poolKeys(nKeys).filter((k) => k.tier === 'scale').map((k) => k.key);
  const dir = mkdtempSync(join(tmpdir(), 'lc-bench-mixed-'));
  // The mix's keyed rate is TARGET_FRACTION of the tier's; a custom per-minute figure sets it.
  const env = (url: string, name: string): Record<string, string> => ({
    BASE_URL: url,
    API_KEY: BENCH_KEY,
    MIXED_KEYS: pool.join(','),
    TIER: 'scale',
    TIER_PER_MINUTE: String(rate * 60 * 2),
    TIER_BURST: String(rate * 4),
    TARGET_FRACTION: '0.5',
    MIXED_SECONDS: String(seconds),
    P95_MS: '60000',
    P99_MS: '60000',
    RUN_ID: `bench-${name}-${Date.now()}`,
  });
  const targets: Array<{ name: string; url: string; close(): Promise<void> }> = [];
  let worktree: ReturnType<typeof checkoutRef> | undefined;
  try {
    if (values['against-ref']) {
      worktree = checkoutRef(ROOT, values['against-ref'], dir);
      values.against = worktree.path;
    }
    const sb = await startSandbox(ROOT, join(dir, 'after.db'), nKeys);
    targets.push({ name: 'sandbox', url: sb.url, close: () => stopChild(sb.child) });
    if (values.against) {
      const before = await startSandbox(values.against, join(dir, 'before.db'), nKeys);
      targets.push({ name: `before (${values.against})`, url: before.url, close: () => stopChild(before.child) });
    }
    const bare = await startBare();
    targets.push({ name: 'bare node:http', ...bare });
    console.log(`mixed benchmark — k6 scenarios/mixed.ts at ${rate} keyed requests/s for ${seconds}s per target, sandbox with limits on (pool of ${nKeys} Scale keys) and metrics on, loopback`);
    console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const results: Record<string, { total: { rps: number; p99: number; failed: number }; endpoints: Record<string, EndpointFigures> }> = {};
    for (const t of targets) {
      const points = join(dir, `${t.name.replace(/\W+/g, '_')}.json`);
      const k = await runK6(SCRIPT, env(t.url, t.name.replace(/\W+/g, '_')), ['--out', `json=${points}`]);
      results[t.name] = { total: { rps: k.achievedRps, p99: k.p99Ms, failed: k.failedRate }, endpoints: await figuresFromPoints(points, seconds) };
    }
    const names = Object.keys(results);
    const endpoints = [...new Set(names.flatMap((n) => Object.keys(results[n]!.endpoints)))].sort();
    console.log(`${'endpoint'.padEnd(22)}${names.map((n) => `${n.slice(0, 24).padStart(26)} req/s  p99 ms`).join('')}`);
    for (const e of endpoints) {
      console.log(`${e.padEnd(22)}${names.map((n) => { const f = results[n]!.endpoints[e]; return f ? `${f.rps.toFixed(0).padStart(32)} ${f.p99.toFixed(2).padStart(7)}` : `${'-'.padStart(32)} ${'-'.padStart(7)}`; }).join('')}`);
    }
    console.log(`${'all'.padEnd(22)}${names.map((n) => `${results[n]!.total.rps.toFixed(0).padStart(32)} ${results[n]!.total.p99.toFixed(2).padStart(7)}`).join('')}`);
    if (values.json) writeFileSync(values.json, JSON.stringify({ rate, seconds, keys: nKeys, results }, null, 2));
  } finally {
    for (const t of targets) await t.close();
    worktree?.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === SELF) await main();
