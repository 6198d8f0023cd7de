// Runs the pinned k6: one process, or N processes splitting the test with
// --execution-segment / --execution-segment-sequence. Each writes its own summary, raw
// NDJSON samples and dashboard export.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureK6, readK6State } from '../../scripts/ensure-k6.mjs';
import { createRedactor } from '../../reports/redact.ts';
import { selfCommand } from '../../kernel/self-command.ts';

export function k6Binary(): { path: string; version: string } {
  const s = readK6State() as { path?: string; version?: string } | undefined;
  if (s?.path && existsSync(s.path)) return { path: s.path, version: s.version ?? 'unknown' };
  if (s) {
    // An install-time attempt was made and recorded (npm ci's prepare, \`k6 install\`): look
    // again (k6 may be on PATH since) but build nothing; a refused build is retried only there.
    const e = ensureK6({ build: false }) as { path: string; version: string };
    return { path: e.path, version: e.version };
  }
  // First use with no record (the installed package has no postinstall): found or built now, once.
  console.error(`lendcheck: k6 is not set up yet; finding or building the pinned k6 once (\`${selfCommand()} k6 install\` does this ahead of time)...`);
  const e = ensureK6() as { path: string; version: string };
  return { path: e.path, version: e.version };
}

export interface SegmentFiles {
  summary: string;
  samples: string;
  dashboard: string;
  log: string;
}

export function segmentFiles(dir: string, index: number, count: number): SegmentFiles {
  const suffix = count > 1 ? `-seg${index + 1}` : '';
  return {
    summary: join(dir, `k6-summary${suffix}.json`),
    samples: join(dir, `k6-samples${suffix}.ndjson`),
    dashboard: join(dir, `k6-dashboard${suffix}.html`),
    log: join(dir, `k6${suffix}.log`),
  };
}

/** File outputs (json=…, csv=…) get one file per segment, or the processes would share one. */
export function outForSegment(out: string, index: number, count: number): string {
  const m = /^(json|csv)=(.+)$/.exec(out);
  if (!m || count <= 1) return out;
  const file = m[2].replace(/(\.[^./]+)?$/, (ext) => `-seg${index + 1}${ext}`);
  return `${m[1]}=${file}`;
}

/** `0,1/N,…,1` and the i-th `a:b` of it. */
export function segmentArgs(index: number, count: number): string[] {
  if (count <= 1) return [];
  const at = (k: number) => (k === 0 ? '0' : k === count ? '1' : `${k}/${count}`);
  const sequence = Array.from({ length: count + 1 }, (_, k) => at(k)).join(',');
  return ['--execution-segment', `${at(index)}:${at(index + 1)}`, '--execution-segment-sequence', sequence];
}

export interface K6Run {
  exitCode: number;
  /** Combined output with secrets removed. */
  output: string;
  files: SegmentFiles;
}

export interface K6RunInput {
  k6: string;
  script: string;
  env: Record<string, string>;
  outs: string[];
  files: SegmentFiles;
  index: number;
  count: number;
  timeoutMs: number;
  echo: boolean;
  secrets: string[];
  extraArgs?: string[];
}

/** k6 output through the one redactor (reports/redact.ts), with the run's keys as literals. */
export function redact(text: string, secrets: string[]): string {
  return createRedactor(secrets).text(text);
}

export function runK6(i: K6RunInput): Promise<K6Run> {
  const args = [
    'run',
    '--no-usage-report',
    '--summary-export',
    i.files.summary,
    '--out',
    `json=${i.files.samples}`,
    ...i.outs.flatMap((o) => ['--out', outForSegment(o, i.index, i.count)]),
    ...segmentArgs(i.index, i.count),
    ...(i.extraArgs ?? []),
    i.script,
  ];
  const env = {
    ...process.env,
    ...i.env,
    K6_NO_USAGE_REPORT: 'true',
    // The dashboard's server is off (-1): only the HTML export is wanted, and parallel
    // segments would fight over its port.
    K6_WEB_DASHBOARD: 'true',
    K6_WEB_DASHBOARD_PORT: '-1',
    K6_WEB_DASHBOARD_PERIOD: '1s',
    K6_WEB_DASHBOARD_EXPORT: i.files.dashboard,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(i.k6, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (b: Buffer) => {
      const text = redact(b.toString('utf8'), i.secrets);
      output += text;
      if (i.echo) process.stderr.write(text);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // Bounded: a run that overstays its plan is stopped (SIGINT lets k6 write its summary).
    const timer = setTimeout(() => {
      output += `\nlendcheck: k6 exceeded ${Math.round(i.timeoutMs / 1000)} s and was interrupted\n`;
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, i.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 128 : 1), output, files: i.files });
    });
  });
}

/** The script's options as k6 resolves them (thresholds included) for the given env. */
export interface InspectedOptions {
  thresholds?: Record<string, Array<string | { threshold: string; abortOnFail?: boolean }>>;
  scenarios?: Record<string, { startTime?: string; duration?: string; gracefulStop?: string }>;
}

export function inspectOptions(k6: string, script: string, env: Record<string, string>): InspectedOptions {
  const r = spawnSync(k6, ['inspect', '--include-system-env-vars', script], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`k6 inspect failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  return JSON.parse(r.stdout) as InspectedOptions;
}

/** Go duration text as k6 prints it (1m12s, 100ms, 2h0m0s) in seconds. */
export function goDurationSeconds(text: string | undefined): number {
  if (!text) return 0;
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) {
    const n = Number(m[1]);
    total += { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 }[m[2] as 'h'] * n;
  }
  return total;
}

/** The longest a run can take under its scenarios: start + duration + graceful stop. */
export function plannedSeconds(o: InspectedOptions): number {
  let max = 0;
  for (const s of Object.values(o.scenarios ?? {})) {
    max = Math.max(max, goDurationSeconds(s.startTime) + goDurationSeconds(s.duration) + goDurationSeconds(s.gracefulStop ?? '30s'));
  }
  return max;
}
