// Benchmark (not a test): k6's own ceiling on this machine. req/s of a bare GET scenario
// run by the pinned k6, beside wrk on the same endpoint, in the same run, alternating
// rounds; reported as the ratio k6/wrk and as headroom over the highest rates the load
// scenarios ask of k6 (Scale's burst of 2400 and its sustained 2 × 1000/min).
//
//   node --import tsx bench/k6-ceiling.ts [--seconds 8] [--connections 32] [--rounds 3]
//
// The endpoint is a bare node:http handler in a child process, so neither generator shares
// its event loop. Load goes to 127.0.0.1 only and is bounded in time. Without wrk the run
// stops and says so (apt-get install -y wrk).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TIERS } from '../contract/constants.ts';
import { k6Binary } from '../cli/load/k6-process.ts';

const SELF = fileURLToPath(import.meta.url);

async function serve(): Promise<void> {
  const body = JSON.stringify({ ok: true });
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  console.log(`URL http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /URL (\S+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function wrk(url: string, seconds: number, connections: number): number {
  const r = spawnSync('wrk', ['-t2', `-c${connections}`, `-d${seconds}s`, url], { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout ?? '');
  if (!m) throw new Error(`wrk: expected "Requests/sec" / received ${(r.stdout || r.stderr || '').slice(0, 200)}`);
  return Number(m[1]);
}

function k6(bin: string, dir: string, url: string, seconds: number, connections: number): number {
  const script = join(dir, 'bare-get.js');
  writeFileSync(
    script,
    `import http from 'k6/http';
export const options = { scenarios: { bare: { executor: 'constant-vus', vus: ${connections}, duration: '${seconds}s' } }, summaryTrendStats: ['med'] };
export default function () { http.get(${JSON.stringify(url)}); }
`,
  );
  const summary = join(dir, 'summary.json');
  const r = spawnSync(bin, ['run', '-q', '--no-usage-report', '--summary-export', summary, script], { encoding: 'utf8', timeout: (seconds + 60) * 1000 });
  if (r.status !== 0) throw new Error(`k6 exited ${r.status}: ${(r.stderr || '').slice(-300)}`);
  const s = JSON.parse(readFileSync(summary, 'utf8')) as { metrics: Record<string, { rate?: number; value?: number }> };
  const failed = s.metrics.http_req_failed?.value ?? 0;
  if (failed > 0) throw new Error(`k6: expected no failed requests / received a failure rate of ${failed}`);
  return s.metrics.http_reqs.rate ?? 0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '32' }, rounds: { type: 'string', default: '3' }, serve: { type: 'boolean' } } });
  if (values.serve) return serve();
  if (spawnSync('sh', ['-c', 'command -v wrk']).status !== 0) {
    console.error('k6-ceiling: wrk is not installed (apt-get install -y wrk); no comparison is possible, nothing measured');
    process.exit(2);
  }
  const seconds = Math.min(30, Number(values.seconds));
  const connections = Math.min(256, Number(values.connections));
  const rounds = Math.min(5, Number(values.rounds));
  const bin = k6Binary();
  const dir = mkdtempSync(join(tmpdir(), 'lendcheck-k6-ceiling-'));
  const { url, child } = await startServer();
  const w: number[] = [];
  const k: number[] = [];
  try {
    // Alternating rounds, so drift in the machine's load hits both generators alike.
    for (let i = 0; i < rounds; i++) {
      w.push(wrk(url, seconds, connections));
      k.push(k6(bin.path, dir, url, seconds, connections));
      console.log(`round ${i + 1}: wrk ${Math.round(w[i])} req/s, k6 ${Math.round(k[i])} req/s`);
    }
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  const wm = median(w);
  const km = median(k);
  const burst = Math.ceil(TIERS.scale.burst * 1.2);
  const sustained = (TIERS.scale.perMinute * 2) / 60;
  console.log(`k6 ${bin.version} bare GET, ${connections} VUs/connections, ${seconds} s × ${rounds} rounds on ${url}`);
  console.log(`median: wrk ${Math.round(wm)} req/s, k6 ${Math.round(km)} req/s; k6/wrk = ${(km / wm).toFixed(2)}`);
  console.log(`headroom: k6 sends Scale's burst of ${burst} in ≈ ${(burst / km).toFixed(2)} s; k6 ceiling / Scale's sustained ${sustained.toFixed(1)} req/s = ${Math.round(km / sustained)}×`);
}

await main();
