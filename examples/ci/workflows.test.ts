import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

// The example workflows parse, name what CI needs (JUnit, the report as an artifact), and
// their shell commands run here as written, in bash, with the job's environment:
// - `npx lendcheck …` runs the checkout's CLI (cli/bin.js): a shim on PATH stands for the bin an
//   installed package gives, and a shim `npx` refuses anything else, so nothing is fetched;
// - the service start line starts lendcheck's reference sandbox (the stand-in the examples use)
//   on a free port, and the gate runs against it (contract + conformance, the examples' steps);
// - the rerun step runs after the gate as CI would on a failure (here it finds nothing failed);
// - not run here: `npm ci` (this checkout is installed already) and GitHub's `uses:` actions
//   (checkout, setup-node, the JUnit and artifact actions); their inputs are checked to name
//   files the gate wrote.

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-ci-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function parse(file: string): Record<string, any> {
  const doc = parseDocument(readFileSync(join(import.meta.dirname, file), 'utf8'), { prettyErrors: true, uniqueKeys: true });
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  expect(doc.warnings.map((e) => e.message)).toEqual([]);
  return doc.toJS() as Record<string, any>;
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/** A PATH where `lendcheck` is this checkout's CLI and `npx` runs only it. */
function shims(): string {
  const dir = join(tmp, 'bin');
  if (existsSync(join(dir, 'npx'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(join(dir, 'lendcheck'), `#!/bin/sh\nexec node ${JSON.stringify(join(ROOT, 'cli', 'bin.js'))} "$@"\n`);
  writeFileSync(join(dir, 'npx'), '#!/bin/sh\nif [ "$1" = lendcheck ]; then shift; exec lendcheck "$@"; fi\necho "npx $1: not run by this test (only npx lendcheck is)" >&2\nexit 127\n');
  chmodSync(join(dir, 'lendcheck'), 0o755);
  chmodSync(join(dir, 'npx'), 0o755);
  return dir;
}

/** Runs the lines as one bash job in `cwd`; a background service the lines start is stopped at the end. */
async function bash(lines: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; out: string }> {
  const script = ["trap 'kill $(jobs -p) 2>/dev/null' EXIT", 'set -e', ...lines].join('\n');
  try {
    const { stdout, stderr } = await run('bash', ['-c', script], { cwd, env: { ...env, PATH: `${shims()}:${process.env.PATH}`, HOME: process.env.HOME ?? tmp }, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, out: `${x.stdout ?? ''}${x.stderr ?? ''}` };
  }
}

const isLendcheck = (l: string) => /\bnpx lendcheck\b/.test(l);

/** `${{ secrets.X || 'default' }}` as it evaluates without the secret. */
const githubValue = (v: unknown) => String(v).replace(/\$\{\{\s*secrets\.\w+\s*\|\|\s*'([^']*)'\s*\}\}/g, '$1');

function gateRuns(dir: string): string[] {
  const reports = join(dir, 'lendcheck-reports');
  return existsSync(reports) ? readdirSync(reports).filter((n) => /^\d{8}T\d{6}Z-/.test(n)) : [];
}

// The two workflows run side by side: each has its own directory, port and sandbox, and each is
// mostly a wait on its spawned CLIs (the sandbox's start, the gate's conformance).
describe('example CI workflows (examples/ci)', () => {
  it.concurrent('GitHub Actions: parses, uploads JUnit and the report, and its commands run here', async () => {
    const wf = parse('github-actions.yml');
    const job = wf.jobs.gate;
    const steps = job.steps as Array<Record<string, any>>;
    expect(wf.on).toHaveProperty('pull_request');
    const uses = steps.filter((s) => s.uses).map((s) => String(s.uses).split('@')[0]);
    expect(uses).toEqual(expect.arrayContaining(['actions/checkout', 'actions/setup-node', 'mikepenz/action-junit-report', 'actions/upload-artifact']));
    const junit = steps.find((s) => String(s.uses).startsWith('mikepenz/action-junit-report'))!;
    const artifact = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact'))!;
    expect(junit.if).toBe('always()');
    expect(artifact.if).toBe('always()');

    const runSteps = steps.filter((s) => typeof s.run === 'string');
    const lines = (s: Record<string, any>) => String(s.run).split('\n').filter((l) => l.trim());
    const main = runSteps.filter((s) => !s.if).flatMap(lines).filter((l) => l !== 'npm ci');
    const onFailure = runSteps.filter((s) => s.if === 'failure()').flatMap(lines);
    expect(main.some(isLendcheck) && onFailure.some(isLendcheck)).toBe(true);

    const cwd = mkdtempSync(join(tmp, 'gh-'));
    const summary = join(cwd, 'step-summary.md');
    const env: Record<string, string> = Object.fromEntries(Object.entries(job.env as Record<string, unknown>).map(([k, v]) => [k, githubValue(v)]));
    Object.assign(env, { SERVICE_PORT: String(await freePort()), RUNNER_TEMP: cwd, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, NO_COLOR: '1' });
    const r = await bash([...main, ...onFailure], env, cwd);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/verdict: PASS/);
    expect(r.out).toMatch(/nothing to replay: run \S+ had no failed check/);
    // What the uses: steps would pick up exists.
    const [runId] = gateRuns(cwd);
    expect(junit.with.report_paths).toBe('lendcheck-reports/*/junit.xml');
    expect(existsSync(join(cwd, 'lendcheck-reports', runId, 'junit.xml'))).toBe(true);
    expect(existsSync(join(cwd, artifact.with.path, runId, 'index.html'))).toBe(true);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## lendcheck: ✅ PASS/m);
  }, 300_000);

  it.concurrent('GitLab CI: parses, reports JUnit and keeps the report, and its commands run here', async () => {
    const wf = parse('gitlab-ci.yml');
    const job = wf['lendcheck-gate'];
    expect(job.artifacts).toMatchObject({ when: 'always', paths: ['lendcheck-reports/'], reports: { junit: 'lendcheck-reports/*/junit.xml' } });
    const script = (job.script as string[]).filter((l) => l !== 'npm ci');
    expect(script.some(isLendcheck)).toBe(true);
    const cwd = mkdtempSync(join(tmp, 'gl-'));
    const env: Record<string, string> = { ...(job.variables as Record<string, string>), SERVICE_PORT: String(await freePort()), TMPDIR: cwd, NO_COLOR: '1' };
    const r = await bash(script, env, cwd);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/verdict: PASS/);
    const [runId] = gateRuns(cwd);
    expect(existsSync(join(cwd, 'lendcheck-reports', runId, 'junit.xml'))).toBe(true);
    // The rerun branch (taken on a red gate) runs here too, against the same run.
    const gate = script.findIndex((l) => l.includes('--rerun-failed'));
    const rerun = script[gate].split('|| {')[1].replace(/; exit 1; }$/, '');
    const again = await bash([...script.slice(0, gate), rerun], env, cwd);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/nothing to replay/);
  }, 300_000);
});
