// Benchmark (not a test): req/s and p50/p99 latency of the reference sandbox over
// loopback for GET /positions/{id}, GET /users/{userId}/positions and POST /lend, beside a
// bare node:http handler measured in the same run; figures are reported as ratios.
//
//   node --import tsx bench/sandbox-http.ts [--seconds 5] [--connections 32] [--client wrk|undici] [--profile]
//                                          [--rounds 3] [--slices 1] [--before] [--endpoints get,list,lend,429,401]
//                                          [--plugins none|default,metrics] [--keys 500] [--against DIR | --against-ref REF] [--root DIR]
//
// --plugins default,metrics serves the sandbox as `lendcheck sandbox --metrics` does (rate
// limits on, metrics on, hence no read cache); requests then rotate over a pool of --keys
// Scale keys so no tier caps the run. Endpoint 429 reads with a Starter key exhausted during
// seeding; 401 reads with an unknown key (with limits on that draws from the public bucket,
// so after its burst the answers are the public 429: the status mix is printed per row).
//
// --rounds N measures every endpoint N times (bare and sandbox alternately, each round its
// own ratio). --slices K cuts each round into K alternating slices (bare, sandbox, before,
// then again), each seconds/K long, and sums them: on a shared VM the machine's own speed
// drifts within seconds (bare node:http alone ranged 12,000-25,000 req/s in one run), and
// slices spread that drift over both sides of a ratio. A round's p50 and p99 are those of
// all its slices' latencies together (wrk's histograms, merged). --before also serves the same sandbox through its fetch door over node:http (the
// adapter before sandbox/http/node-listener.ts) and measures it beside the current one;
// --against DIR does the same with the sandbox of another checkout (e.g. a git worktree of
// the commit before a change), for side-by-side figures of one change; --against-ref REF
// checks REF out into a temporary worktree for that (bench/lib/worktree.ts).
//
// --profile adds one more run per endpoint with V8's CPU profiler on inside the sandbox
// process and prints where its busy time goes (self time by package or folder, hottest
// functions). Those runs are slower (the profiler samples every 100 µs) and are kept out of
// the figures above them; the .cpuprofile files stay in lendcheck-reports/bench/ for DevTools.
//
// Each server runs in its own child process so the load generator (wrk when installed, its
// Lua script rotating the same key pool and counting answers by status,
// else an undici Pool loop in this process) does not share its event loop. By default rate
// limits are off (plugins: []) and the built-in liquidity provider is always off, so the
// figures are those of the request path itself. Load goes to 127.0.0.1 only and is bounded
// in time. --against DIR runs this file's child with DIR's sandbox modules (--root), so both
// sides get the same plugins and key pool.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { routePath } from '../contract/fill-path.ts';
import { ROUTES } from '../contract/routes.ts';
import { breakdown, formatBreakdown, type CpuProfile } from './lib/cpuprofile.ts';
import { BENCH_KEY, EXHAUSTED_KEY, poolKeys } from './lib/key-pool.ts';
import { stopChild } from './lib/child.ts';
import { checkoutRef } from './lib/worktree.ts';
import { serve } from './sandbox-http/child.ts';
import { cpuSeconds, withUndici, withWrk, type Scenario } from './sandbox-http/clients.ts';
import { sum, type Figures } from './sandbox-http/figures.ts';

const KEY = BENCH_KEY;
const UNKNOWN_KEY = 'ck_test_bench_nobody';
const SELF = fileURLToPath(import.meta.url);
const ROOT = join(SELF, '..', '..');

function ask<T>(child: ChildProcess, msg: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(msg);
  });
}

// ---- parent: load and figures -------------------------------------------------------------

function startChild(kind: string, dbPath: string, opts: { root?: string; plugins?: string; keys?: number } = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--serve', kind, '--db', dbPath, '--root', opts.root ?? ROOT, '--plugins', opts.plugins ?? 'none'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, LENDCHECK_BENCH_KEYS: String(opts.keys ?? 0) },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /URL (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      db: { type: 'string', default: ':memory:' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '32' },
      client: { type: 'string' },
      profile: { type: 'boolean', default: false },
      rounds: { type: 'string', default: '1' },
      slices: { type: 'string', default: '1' },
      before: { type: 'boolean', default: false },
      endpoints: { type: 'string', default: 'get,list,lend' },
      against: { type: 'string' },
      'against-ref': { type: 'string' },
      root: { type: 'string', default: ROOT },
      plugins: { type: 'string', default: 'none' },
      keys: { type: 'string', default: '500' },
    },
  });
  if (values.serve) return serve(values.serve, values.db!, values.root!, values.plugins!);
  const limitsOn = values.plugins!.split(',').includes('default');
  const nKeys = limitsOn ? Math.max(1, Math.min(5000, Number(values.keys))) : 0;
  const rotation = nKeys > 0 ? poolKeys(nKeys).filter((k) => k.key !== EXHAUSTED_KEY).map((k) => k.key) : [KEY];

  const seconds = Math.min(60, Number(values.seconds));
  const connections = Math.min(256, Number(values.connections));
  const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
  const client = values.client ?? (hasWrk ? 'wrk' : 'undici');
  if (client === 'wrk' && !hasWrk) throw new Error('--client wrk: wrk is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'lc-bench-sandbox-'));
  const worktree = values['against-ref'] ? checkoutRef(ROOT, values['against-ref'], dir) : undefined;
  if (worktree) values.against = worktree.path;
  // A checkout named relative to where the bench is run, as a user types it (the child imports from it).
  if (values.against) values.against = resolve(values.against);
  if (values.root) values.root = resolve(values.root);
  const load = (base: string, s: Scenario, secs: number) => (client === 'wrk' ? withWrk(base, s, secs, connections, dir, rotation) : withUndici(base, s, secs, connections, rotation));
  const runFor = async (server: { child: ChildProcess; url: string }, s: Scenario, secs: number): Promise<Figures> => {
    const c0 = cpuSeconds(server.child.pid);
    const f = await load(server.url, s, secs);
    f.seconds = secs;
    const c1 = cpuSeconds(server.child.pid);
    if (c0 !== undefined && c1 !== undefined && f.total > 0) f.cpuUs = ((c1 - c0) / f.total) * 1e6;
    return f;
  };
  const run = (server: { child: ChildProcess; url: string }, s: Scenario) => runFor(server, s, seconds);

  const rounds = Math.max(1, Math.min(10, Number(values.rounds)));
  const slices = Math.max(1, Math.min(20, Number(values.slices)));
  const sliceSeconds = Math.max(1, Math.round(seconds / slices));
  const bare = await startChild('bare', ':memory:');
  // --root DIR serves (and --profile profiles) another checkout's sandbox in place of this one.
  const child = { plugins: values.plugins, keys: nKeys, root: values.root };
  const sb = await startChild('sandbox', join(dir, 'bench.db'), child);
  // --against DIR: the sandbox of another checkout (the commit before a change) in place of the old adapter.
  const beforeLabel = values['against-ref'] ? `  (before: ${values['against-ref']})` : values.against ? `  (before: ${values.against})` : '  (before: the fetch door over node:http)';
  const before = values.against
    ? await startChild('sandbox', join(dir, 'before.db'), { ...child, root: values.against })
    : values.before ? await startChild('sandbox-before', join(dir, 'before.db')) : undefined;
  try {
    // Seed: one position to read, and a user with 50 positions to list (in each sandbox).
    const h = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const seed = async (url: string) => {
      const lend = (userId: string) =>
        fetch(`${url}${routePath('lend.create')}`, { method: 'POST', headers: h, body: JSON.stringify({ userId, asset: 'USDC', amount: '10', rate: 0.2, maturity: '180d' }) }).then(
          (r) => r.json() as Promise<{ positionId: string }>,
        );
      const first = await lend('bench-reader');
      for (let i = 0; i < 49; i++) await lend('bench-reader');
      // Exhausts the Starter key (its burst plus margin) for the 429 endpoint.
      if (limitsOn) for (let i = 0; i < 120; i++) await fetch(`${url}${routePath('position.get', { positionId: first.positionId })}`, { headers: { authorization: `Bearer ${EXHAUSTED_KEY}` } }).then((r) => r.arrayBuffer());
      return first.positionId;
    };
    const one = { positionId: await seed(sb.url) };
    const beforeId = before ? await seed(before.url) : undefined;

    const lendBody = () => JSON.stringify({ userId: 'USERID', asset: 'USDC', amount: '1.5', rate: 0.2, maturity: '90d' });
    const pairs: Array<{ label: string; sandbox: Scenario; bare: Scenario; target: number }> = [
      { label: 'GET /positions/{id}', sandbox: { name: 'get', method: 'GET', path: routePath('position.get', one) }, bare: { name: 'bare-get', method: 'GET', path: '/x' }, target: 5000 },
      { label: `${ROUTES['positions.list'].method} ${ROUTES['positions.list'].path}`, sandbox: { name: 'list', method: 'GET', path: routePath('positions.list', { userId: 'bench-reader' }) }, bare: { name: 'bare-get2', method: 'GET', path: '/x' }, target: 5000 },
      { label: 'POST /lend', sandbox: { name: 'lend', method: 'POST', path: routePath('lend.create'), body: lendBody }, bare: { name: 'bare-post', method: 'POST', path: '/x', body: lendBody }, target: 2000 },
      { label: '429 exhausted key', sandbox: { name: '429', method: 'GET', path: routePath('position.get', one), key: EXHAUSTED_KEY }, bare: { name: 'bare-get3', method: 'GET', path: '/x' }, target: 5000 },
      { label: '401 unknown key', sandbox: { name: '401', method: 'GET', path: routePath('position.get', one), key: UNKNOWN_KEY }, bare: { name: 'bare-get4', method: 'GET', path: '/x' }, target: 5000 },
    ];
    const wanted = new Set(values.endpoints!.split(','));
    for (let k = pairs.length - 1; k >= 0; k--) if (!wanted.has(pairs[k].sandbox.name)) pairs.splice(k, 1);
    console.log(`sandbox HTTP benchmark — client ${client}, ${connections} connections, ${seconds}s per run, loopback, plugins ${values.plugins}${nKeys ? ` (key pool of ${nKeys} Scale keys)` : ', rate limits off'}`);
    console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log('endpoint                      sandbox req/s   p50 ms   p99 ms  errors  cpu µs/req | bare req/s   p50 ms   p99 ms  cpu µs/req | ratio  aim');
    const rows = [];
    const line = (label: string, s: Figures, b: Figures, ratio: number, target: number) =>
      console.log(
        `${label.padEnd(28)} ${s.rps.toFixed(0).padStart(10)} ${s.p50.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${String(s.errors).padStart(7)} ${(s.cpuUs?.toFixed(0) ?? '-').padStart(11)} |` +
          ` ${b.rps.toFixed(0).padStart(10)} ${b.p50.toFixed(2).padStart(8)} ${b.p99.toFixed(2).padStart(8)} ${(b.cpuUs?.toFixed(0) ?? '-').padStart(11)} | ${ratio.toFixed(2).padStart(5)}  ${s.rps >= target ? 'met' : 'under'} ${target}/s` +
          (s.statuses ? `  ${Object.entries(s.statuses).map(([k, v]) => `${k}×${v}`).join(' ')}` : '') +
          (s.cpuUs && b.cpuUs ? `  cpu ${(b.cpuUs / s.cpuUs).toFixed(2)}× bare` : ''),
      );
    for (const p of pairs) {
      await run(sb, p.sandbox).catch(() => undefined); // warm-up (JIT, page cache); figures discarded
      const beforeScenario = { ...p.sandbox, path: p.sandbox.path.replace(one.positionId, beforeId ?? '') };
      if (before) await run(before, beforeScenario).catch(() => undefined);
      for (let round = 1; round <= rounds; round++) {
        // Slices alternate bare, sandbox and before, so drift in the machine's speed falls on each.
        const parts: { b: Figures[]; s: Figures[]; o: Figures[] } = { b: [], s: [], o: [] };
        for (let k = 0; k < slices; k++) {
          parts.b.push(await runFor(bare, p.bare, sliceSeconds));
          parts.s.push(await runFor(sb, p.sandbox, sliceSeconds));
          if (before) parts.o.push(await runFor(before, beforeScenario, sliceSeconds));
        }
        const b = sum(parts.b);
        const s = sum(parts.s);
        const ratio = s.rps / b.rps;
        const label = rounds > 1 ? `${p.label} #${round}` : p.label;
        const row: Record<string, unknown> = { endpoint: p.label, round, sandbox: s, bare: b, ratio, aim: p.target, slices };
        line(label, s, b, ratio, p.target);
        if (before) {
          const o = sum(parts.o);
          row.before = o;
          row.beforeRatio = o.rps / b.rps;
          line(beforeLabel.slice(0, 28), o, b, o.rps / b.rps, p.target);
        }
        rows.push(row);
      }
    }
    const profiles: Record<string, ReturnType<typeof breakdown>> = {};
    if (values.profile) {
      const outDir = join(process.cwd(), 'lendcheck-reports', 'bench');
      mkdirSync(outDir, { recursive: true });
      // The sandbox before the change is profiled too (its own run of the same scenario), so
      // the two breakdowns can be read side by side.
      const sides = [{ label: '', server: sb, file: 'sandbox', path: (x: string) => x }];
      if (before && beforeId && values.against) sides.push({ label: ' (before)', server: before, file: 'before', path: (x: string) => x.replace(one.positionId, beforeId) });
      for (const p of pairs) {
        for (const side of sides) {
          await ask(side.server.child, 'start');
          const f = await run(side.server, { ...p.sandbox, path: side.path(p.sandbox.path) });
          const { profile } = await ask<{ profile: CpuProfile }>(side.server.child, 'stop');
          writeFileSync(join(outDir, `${side.file}-${p.sandbox.name}.cpuprofile`), JSON.stringify(profile));
          profiles[`${p.label}${side.label}`] = breakdown(profile);
          console.log(`\n${formatBreakdown(profiles[`${p.label}${side.label}`]!, `${p.label}${side.label} under the profiler (${f.rps.toFixed(0)} req/s, ${f.cpuUs?.toFixed(0) ?? '-'} µs CPU per request)`)}`);
        }
      }
    }
    console.log(JSON.stringify({ client, connections, seconds, rows, profiles }, (k, v: unknown) => (k === 'hist' ? undefined : v)));
  } finally {
    await stopChild(sb.child);
    await stopChild(bare.child);
    if (before) await stopChild(before.child);
    worktree?.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Imported by bench/mixed.ts for its children (the same sandbox setups); run when executed.
if (process.argv[1] === SELF) await main();
