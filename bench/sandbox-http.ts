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
// all its slices' latencies together (wrk's histograms, merged). --before also serves the same sandbox through @hono/node-server's listener (the
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
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Session } from 'node:inspector/promises';
import { Pool } from 'undici';
import { breakdown, formatBreakdown, type CpuProfile } from './lib/cpuprofile.ts';
import { BENCH_KEY, EXHAUSTED_KEY, poolKeys } from './lib/key-pool.ts';
import { stopChild } from './lib/child.ts';
import { checkoutRef } from './lib/worktree.ts';

const KEY = BENCH_KEY;
const UNKNOWN_KEY = 'ck_test_bench_nobody';
const SELF = fileURLToPath(import.meta.url);
const ROOT = join(SELF, '..', '..');

// ---- child: one server, its URL on stdout ----------------------------------------------

/** The plugins of a sandbox child, imported from the checkout at `root` (--against). */
export async function sandboxPlugins(root: string, names: string): Promise<unknown[]> {
  if (names === 'none') return [];
  const want = new Set(names.split(','));
  const out: unknown[] = [];
  if (want.has('metrics')) out.push((await import(join(root, 'sandbox', 'metrics', 'plugin.ts'))).metricsPlugin());
  if (want.has('default')) out.push(...(await import(join(root, 'sandbox', 'plugins.ts'))).defaultPlugins({ webhooks: false }));
  return out;
}

async function serve(kind: string, dbPath: string, root: string, pluginNames: string): Promise<void> {
  const plugins = (await sandboxPlugins(root, pluginNames)) as [];
  const nKeys = Number(process.env.LENDCHECK_BENCH_KEYS ?? 0);
  const keys = nKeys > 0 ? poolKeys(nKeys) : undefined;
  if (kind === 'bare') {
    const { startBare } = await import('./lib/peers.ts');
    console.log(`URL ${(await startBare()).base}/v1`);
  } else if (kind === 'sandbox-before') {
    const { serve } = await import('@hono/node-server');
    const { createSandbox } = await import('../sandbox/app.ts');
    const sb = createSandbox({ dbPath, plugins: [], liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false });
    const server = serve({ fetch: (req: Request) => sb.fetch(req), port: 0, hostname: '127.0.0.1' }, (info) => console.log(`URL http://127.0.0.1:${info.port}/v1`));
    process.on('SIGTERM', () => {
      server.close(() => {
        sb.close().then(() => process.exit(0), (e: unknown) => (console.error(e), process.exit(1)));
      });
    });
  } else {
    const { startSandboxServer } = (await import(join(root, 'sandbox', 'server.ts'))) as typeof import('../sandbox/server.ts');
    const s = await startSandboxServer({ port: 0, dbPath, plugins, keys, liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false });
    console.log(`URL ${s.url}`);
    process.on('SIGTERM', () => {
      s.close().then(() => process.exit(0), (e: unknown) => (console.error(e), process.exit(1)));
    });
    if (process.send) profileOnRequest();
  }
}

/** The parent says 'start' and 'stop' over IPC; the profile goes back as the reply to 'stop'. */
function profileOnRequest(): void {
  const session = new Session();
  session.connect();
  process.on('message', (m: string) => {
    answer(m).catch((e: unknown) => console.error(`profiler: ${String(e)}`));
  });
  async function answer(m: string) {
    if (m === 'start') {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      process.send!({ started: true });
    } else if (m === 'stop') {
      const { profile } = await session.post('Profiler.stop');
      process.send!({ profile });
    }
  }
}

function ask<T>(child: ChildProcess, msg: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(msg);
  });
}

// ---- parent: load and figures -------------------------------------------------------------

interface Figures {
  /** Answers by status code. */
  statuses?: Record<number, number>;
  /** Server CPU per request (user+system of its process), when /proc is there. */
  cpuUs?: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  /** How long the run lasted (its share of a round when sliced). */
  seconds?: number;
  /** Every latency recorded, as [µs, count] by value (wrk's own histogram), so slices merge exactly. */
  hist?: Array<[number, number]>;
}

/** The p-th percentile (0-100) of a [value, count] histogram sorted by value, as wrk reads it. */
export function percentile(hist: Array<[number, number]>, p: number): number {
  const n = hist.reduce((k, [, c]) => k + c, 0);
  const rank = Math.max(1, Math.round((p / 100) * n + 0.5)); // wrk's stats_percentile
  let seen = 0;
  for (const [v, c] of hist) if ((seen += c) >= rank) return v;
  return hist[hist.length - 1]?.[0] ?? 0;
}

/** Slices of one round as one figure: requests over the summed time; p50 and p99 of all the
 *  slices' latencies together when each carries its histogram, else the median p50 and the
 *  worst p99 (the worst of five one-second p99s overstates a round's: 6-19 ms for POST /lend
 *  in one run where its 5 s p99 was 10). */
export function sum(parts: Figures[]): Figures {
  if (parts.length === 1) return parts[0]!;
  const total = parts.reduce((n, f) => n + f.total, 0);
  const time = parts.reduce((n, f) => n + f.total / f.rps, 0);
  const merged = parts.every((f) => f.hist?.length) ? mergeHists(parts.map((f) => f.hist!)) : undefined;
  const p50s = parts.map((f) => f.p50).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const f of parts) for (const [k, v] of Object.entries(f.statuses ?? {})) statuses[Number(k)] = (statuses[Number(k)] ?? 0) + v;
  const cpu = parts.every((f) => f.cpuUs !== undefined) ? parts.reduce((n, f) => n + f.cpuUs! * f.total, 0) / total : undefined;
  return {
    rps: total / time,
    p50: merged ? percentile(merged, 50) / 1000 : p50s[Math.floor(p50s.length / 2)]!,
    p99: merged ? percentile(merged, 99) / 1000 : Math.max(...parts.map((f) => f.p99)),
    errors: parts.reduce((n, f) => n + f.errors, 0),
    total,
    statuses,
    ...(cpu !== undefined ? { cpuUs: cpu } : {}),
    seconds: time,
  };
}

function mergeHists(hists: Array<Array<[number, number]>>): Array<[number, number]> {
  const m = new Map<number, number>();
  for (const h of hists) for (const [v, c] of h) m.set(v, (m.get(v) ?? 0) + c);
  return [...m].sort((a, b) => a[0] - b[0]);
}

interface Scenario {
  name: string;
  /** Key sent instead of the pool's (the exhausted or the unknown key). */
  key?: string;
  method: 'GET' | 'POST';
  path: string;
  body?: (i: number) => string;
}

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

/** CPU seconds used so far by a process (Linux /proc; undefined elsewhere). */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

async function withWrk(base: string, s: Scenario, seconds: number, connections: number, dir: string, keys: string[]): Promise<Figures> {
  // Lua rotates the Authorization header over the key pool (or sends the scenario's one key),
  // keeps POST bodies distinct per request (userId over 200 users) and counts answers by status
  // in the thread, read back in done() (wrk -t1: one thread).
  const lua = join(dir, `${s.name.replace(/\W+/g, '_')}.lua`);
  const auth = (s.key ? [s.key] : keys).map((k) => `"Bearer ${k}"`).join(',\n');
  const body = s.body ? `'${s.body(0).replace('USERID', "' .. 'bench-u' .. (i % 200) .. '")}'` : 'nil';
  writeFileSync(
    lua,
    `local keys = {\n${auth}\n}\nlocal i = 0\n` +
      `c200, c201, c401, c429, cother = 0, 0, 0, 0, 0\n` +
      `request = function()\n  i = i + 1\n  local h = { ["authorization"] = keys[(i % #keys) + 1], ["content-type"] = "application/json" }\n  return wrk.format("${s.method}", nil, h, ${body})\nend\n` +
      `response = function(status, headers, body)\n  if status == 200 then c200 = c200 + 1 elseif status == 201 then c201 = c201 + 1 elseif status == 401 then c401 = c401 + 1 elseif status == 429 then c429 = c429 + 1 else cother = cother + 1 end\nend\n` +
      `local threads = {}\nsetup = function(thread) table.insert(threads, thread) end\n` +
      `done = function(summary, latency, requests)\n  local t = threads[1]\n  io.write(string.format("FIG %d %d %d %d %.3f %.3f\\n", summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.duration, latency:percentile(50), latency:percentile(99)))\n  io.write(string.format("STATUS %d %d %d %d %d\\n", t:get("c200"), t:get("c201"), t:get("c401"), t:get("c429"), t:get("cother")))\n` +
      `  for k = 1, #latency do local v, c = latency(k); io.write(string.format("H %d %d\\n", v, c)) end\nend\n`,
  );
  const r = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', lua, `${base}${s.path}`], { encoding: 'utf8' });
  const m = /FIG (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(r.stdout);
  if (!m) throw new Error(`wrk gave no figures: ${r.stdout}${r.stderr}`);
  const [total, statusErr, sockErr, durUs, p50us, p99us] = m.slice(1).map(Number);
  const st = /STATUS (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(r.stdout)?.slice(1).map(Number) ?? [];
  const statuses: Record<number, number> = {};
  [200, 201, 401, 429, 0].forEach((code, k) => {
    if (st[k]) statuses[code] = st[k]!;
  });
  const hist: Array<[number, number]> = [];
  for (const h of r.stdout.matchAll(/^H (\d+) (\d+)$/gm)) hist.push([Number(h[1]), Number(h[2])]);
  // A refusal scenario (a fixed key) expects its 401s and 429s; elsewhere they are errors.
  return { rps: total / (durUs / 1e6), p50: p50us / 1000, p99: p99us / 1000, errors: (s.key ? 0 : statusErr) + sockErr, total, statuses, hist };
}

async function withUndici(base: string, s: Scenario, seconds: number, connections: number, keys: string[]): Promise<Figures> {
  const url = new URL(base);
  const pool = new Pool(url.origin, { connections, pipelining: 1 });
  const lat: number[] = [];
  const statuses: Record<number, number> = {};
  const auth = keys.map((k) => `Bearer ${k}`);
  const fixed = s.key ? `Bearer ${s.key}` : undefined;
  let errors = 0;
  let i = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const n = i++;
      try {
        const r = await pool.request({
          method: s.method,
          path: `${url.pathname}${s.path}`,
          headers: { authorization: fixed ?? auth[n % auth.length]!, 'content-type': 'application/json' },
          body: s.body?.(n).replace('USERID', `bench-u${n % 200}`),
        });
        await r.body.dump();
        statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
        if (r.statusCode >= 400 && !s.key) errors++;
      } catch {
        errors++;
      }
      lat.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const dur = (performance.now() - t0) / 1000;
  await pool.close();
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
  return { rps: lat.length / dur, p50: pct(50), p99: pct(99), errors, total: lat.length, statuses };
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
  const beforeLabel = values['against-ref'] ? `  (before: ${values['against-ref']})` : values.against ? `  (before: ${values.against})` : '  (before: @hono/node-server)';
  const before = values.against
    ? await startChild('sandbox', join(dir, 'before.db'), { ...child, root: values.against })
    : values.before ? await startChild('sandbox-before', join(dir, 'before.db')) : undefined;
  try {
    // Seed: one position to read, and a user with 50 positions to list (in each sandbox).
    const h = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const seed = async (url: string) => {
      const lend = (userId: string) =>
        fetch(`${url}/lend`, { method: 'POST', headers: h, body: JSON.stringify({ userId, asset: 'USDC', amount: '10', rate: 0.2, maturity: '180d' }) }).then(
          (r) => r.json() as Promise<{ positionId: string }>,
        );
      const first = await lend('bench-reader');
      for (let i = 0; i < 49; i++) await lend('bench-reader');
      // Exhausts the Starter key (its burst plus margin) for the 429 endpoint.
      if (limitsOn) for (let i = 0; i < 120; i++) await fetch(`${url}/positions/${first.positionId}`, { headers: { authorization: `Bearer ${EXHAUSTED_KEY}` } }).then((r) => r.arrayBuffer());
      return first.positionId;
    };
    const one = { positionId: await seed(sb.url) };
    const beforeId = before ? await seed(before.url) : undefined;

    const lendBody = () => JSON.stringify({ userId: 'USERID', asset: 'USDC', amount: '1.5', rate: 0.2, maturity: '90d' });
    const pairs: Array<{ label: string; sandbox: Scenario; bare: Scenario; target: number }> = [
      { label: 'GET /positions/{id}', sandbox: { name: 'get', method: 'GET', path: `/positions/${one.positionId}` }, bare: { name: 'bare-get', method: 'GET', path: '/x' }, target: 5000 },
      { label: 'GET /users/{id}/positions', sandbox: { name: 'list', method: 'GET', path: '/users/bench-reader/positions' }, bare: { name: 'bare-get2', method: 'GET', path: '/x' }, target: 5000 },
      { label: 'POST /lend', sandbox: { name: 'lend', method: 'POST', path: '/lend', body: lendBody }, bare: { name: 'bare-post', method: 'POST', path: '/x', body: lendBody }, target: 2000 },
      { label: '429 exhausted key', sandbox: { name: '429', method: 'GET', path: `/positions/${one.positionId}`, key: EXHAUSTED_KEY }, bare: { name: 'bare-get3', method: 'GET', path: '/x' }, target: 5000 },
      { label: '401 unknown key', sandbox: { name: '401', method: 'GET', path: `/positions/${one.positionId}`, key: UNKNOWN_KEY }, bare: { name: 'bare-get4', method: 'GET', path: '/x' }, target: 5000 },
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
