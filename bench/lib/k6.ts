import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureK6 } from '../../scripts/ensure-k6.mjs';

export interface K6Figures {
  achievedRps: number;
  p50Ms: number;
  p99Ms: number;
  failedRate: number;
  dropped: number;
}

let k6Path: string | undefined;

/** Runs one k6 script with env and returns the summary figures that benchmarks compare. */
export async function runK6(script: string, env: Record<string, string>, extraArgs: string[] = []): Promise<K6Figures> {
  const k6 = (k6Path ??= (ensureK6() as { path: string }).path);
  const dir = mkdtempSync(join(tmpdir(), 'lc-bench-'));
  const summary = join(dir, 'summary.json');
  try {
    await new Promise<void>((resolve, reject) => {
      const p = spawn(k6, ['run', '-q', '--no-usage-report', '--summary-export', summary, ...extraArgs, script], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      p.stderr.on('data', (d) => (err += String(d)));
      // k6 exits 99 when a threshold fails; the figures are still valid for a benchmark.
      p.on('exit', (code) => (code === 0 || code === 99 ? resolve() : reject(new Error(`k6 exited ${code}: ${err.slice(-400)}`))));
    });
    const m = JSON.parse(readFileSync(summary, 'utf8')).metrics as Record<string, Record<string, number>>;
    return {
      achievedRps: m.http_reqs?.rate ?? 0,
      p50Ms: m.http_req_duration?.med ?? NaN,
      p99Ms: m.http_req_duration?.['p(99)'] ?? NaN,
      failedRate: m.http_req_failed?.value ?? m.http_req_failed?.rate ?? 0,
      dropped: m.dropped_iterations?.count ?? 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
