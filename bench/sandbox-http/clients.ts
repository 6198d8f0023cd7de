import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { Figures } from './figures.ts';

// The two load generators of bench/sandbox-http.ts: wrk when installed (a Lua script rotating
// the key pool and counting answers by status), else an undici Pool loop in this process; and
// the server's CPU per request, read from /proc.

export interface Scenario {
  name: string;
  /** Key sent instead of the pool's (the exhausted or the unknown key). */
  key?: string;
  method: 'GET' | 'POST';
  path: string;
  body?: (i: number) => string;
}

/** CPU seconds used so far by a process (Linux /proc; undefined elsewhere). */
export function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

export async function withWrk(base: string, s: Scenario, seconds: number, connections: number, dir: string, keys: string[]): Promise<Figures> {
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

export async function withUndici(base: string, s: Scenario, seconds: number, connections: number, keys: string[]): Promise<Figures> {
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
