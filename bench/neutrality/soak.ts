import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The neutrality soak: for each seed, the sandbox plays the implementation `--choices random
// --seed N` draws (no controls, rate limits on, a key per tier), and the gate runs against
// it with --detect-profile, through the CLI as a partner would. lendcheck is neutral when
// every seed passes: it asserted nothing the spec and the detected profile do not say.
// Both the soak (bench/neutrality/run.ts) and its CI test (neutrality.test.ts) call runSeed.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'cli/bin.js');

export type Tier = 'starter' | 'growth' | 'scale';

/** How a seed's sandbox plays its implementation: `--choices random` (a draw among listed
 *  alternatives) or `--choices mutate` (that draw plus the shape mutator: sandbox/mutate/). */
export type Choices = 'random' | 'mutate';

/** Test keys of the run: two partners' main keys of one tier, and a key per tier (the spec's limits on each). */
export function soakKeys(tier: Tier) {
  const keys = {
    a: `ck_test_soak_a_${tier}`, b: `ck_test_soak_b_${tier}`,
    starter: 'ck_test_soak_a_t_starter', growth: 'ck_test_soak_a_t_growth', scale: 'ck_test_soak_a_t_scale',
  };
  const store = [
    { key: keys.a, partnerId: 'partner_a', tier }, { key: keys.b, partnerId: 'partner_b', tier },
    { key: keys.starter, partnerId: 'partner_a', tier: 'starter' }, { key: keys.growth, partnerId: 'partner_a', tier: 'growth' },
    { key: keys.scale, partnerId: 'partner_a', tier: 'scale' },
  ];
  return { keys, store };
}

export interface SeedOptions {
  /** The tier of the two main keys (--api-key, --api-key-2); growth, as as-a-user.sh, unless told. */
  tier?: Tier;
  /** Gate steps (--only); undefined runs the whole gate. */
  steps?: string[];
  /** Passed to the sandbox after the choices (e.g. a --fault). */
  sandboxArgs?: string[];
  /** Keep the run's folder (sandbox and gate logs, reports) instead of removing it on a pass. */
  keep?: boolean;
  /** Stop the gate after this long (verdict TIMEOUT), so that no run outlives its caller. */
  timeoutMs?: number;
  /** Chaos's wait for a real-time retry (gate --retry-wait), for whole-gate runs. */
  retryWaitSeconds?: number;
  /** The sandbox's --choices; random unless told. */
  choices?: Choices;
}

export interface SeedFailure { step: string; check: string; message: string }

export interface SeedResult {
  seed: number;
  choices: Choices;
  /** The gate's verdict word (PASS, FAIL, INCOMPLETE), or ERROR when it gave none. */
  verdict: string;
  exitCode: number | null;
  /** From the gate's start to its exit (the sandbox's start not counted). */
  wallMs: number;
  failures: SeedFailure[];
  skipped: { step: string; check: string; reason: string }[];
  /** The run's folder, when kept. */
  dir?: string;
}

export function run(args: string[], log: string): { child: ChildProcess; done: Promise<number | null>; out: () => string } {
  let out = '';
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const done = new Promise<number | null>((res) => child.on('close', (code) => {
    writeFileSync(log, out);
    res(code);
  }));
  return { child, done, out: () => out };
}

/** The sandbox of a seed, through the CLI; without controls (a partner's sandbox) unless told. */
export async function startSandbox(seed: number, dir: string, store: object[], extra: string[], controls = false, choices: Choices = 'random'): Promise<{ url: string; stop: () => Promise<void> }> {
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify(store), { mode: 0o600 });
  const sb = run(['sandbox', '--port', '0', '--db', ':memory:', '--keys', keys, ...(controls ? [] : ['--no-controls']), '--no-console', '--choices', choices, '--seed', String(seed), '--choices-out', join(dir, 'choices.json'), ...extra], join(dir, 'sandbox.log'));
  const stop = async () => {
    if (sb.child.exitCode === null) sb.child.kill('SIGTERM');
    await sb.done;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = /listening on (http:\/\/\S+)/.exec(sb.out());
    if (m) return { url: m[1]!.replace(/\/$/, '').replace(/\/v1$/, ''), stop };
    if (sb.child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`sandbox for seed ${seed} did not start: ${sb.out().trim().split('\n').pop()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Check = { id: string; status: string; message?: string; reason?: string; skipReason?: string };

/** The failed and skipped checks of the gate's summary.json, by step. */
function readSummary(reportDir: string): Pick<SeedResult, 'failures' | 'skipped'> {
  const runDir = readdirSync(reportDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort().pop();
  if (!runDir) return { failures: [], skipped: [] };
  const s = JSON.parse(readFileSync(join(reportDir, runDir, 'summary.json'), 'utf8')) as { parts: { part: string; status: string; reason?: string; checks?: Check[] }[] };
  const failures: SeedFailure[] = [];
  const skipped: SeedResult['skipped'] = [];
  for (const p of s.parts) {
    for (const c of p.checks ?? []) {
      if (c.status === 'failed') failures.push({ step: p.part, check: c.id, message: (c.message ?? '').slice(0, 600) });
      if (c.status === 'skipped') skipped.push({ step: p.part, check: c.id, reason: (c.reason ?? c.skipReason ?? c.message ?? '').slice(0, 300) });
    }
    if (p.status === 'failed' && !(p.checks ?? []).some((c) => c.status === 'failed')) failures.push({ step: p.part, check: '(step)', message: (p.reason ?? 'failed with no failed check').slice(0, 600) });
  }
  return { failures, skipped };
}

/** One seed: its sandbox, the gate with --detect-profile against it, the verdict and the time. */
export async function runSeed(seed: number, o: SeedOptions = {}): Promise<SeedResult> {
  const dir = mkdtempSync(join(tmpdir(), `lendcheck-soak-${seed}-`));
  const { keys, store } = soakKeys(o.tier ?? 'growth');
  const choices = o.choices ?? 'random';
  const sb = await startSandbox(seed, dir, store, o.sandboxArgs ?? [], false, choices);
  const reportDir = join(dir, 'r');
  const t0 = Date.now();
  let exitCode: number | null = null;
  let gateOut = '';
  try {
    const gate = run([
      'gate', '--base-url', `${sb.url}/v1`, '--api-key', keys.a, '--api-key-2', keys.b,
      '--key-starter', keys.starter, '--key-growth', keys.growth, '--key-scale', keys.scale,
      '--detect-profile', '--plain', '--report-dir', reportDir,
      ...(o.steps ? ['--only', o.steps.join(',')] : []),
      ...(o.retryWaitSeconds ? ['--retry-wait', String(o.retryWaitSeconds)] : []),
    ], join(dir, 'gate.log'));
    const timer = o.timeoutMs ? setTimeout(() => gate.child.kill('SIGTERM'), o.timeoutMs) : undefined;
    exitCode = await gate.done;
    if (timer) clearTimeout(timer);
    gateOut = gate.out();
    if (o.timeoutMs && Date.now() - t0 >= o.timeoutMs) gateOut += `\nverdict: TIMEOUT after ${o.timeoutMs} ms`;
  } finally {
    await sb.stop();
  }
  const wallMs = Date.now() - t0;
  const verdict = [...gateOut.matchAll(/^verdict: (\w+)/gm)].pop()?.[1] ?? 'ERROR';
  let found: Pick<SeedResult, 'failures' | 'skipped'> = { failures: [], skipped: [] };
  try {
    found = readSummary(reportDir);
  } catch (e) {
    found.failures.push({ step: 'gate', check: '(no summary)', message: `${(e as Error).message}; last output: ${gateOut.trim().split('\n').slice(-3).join(' | ')}` });
  }
  if (verdict === 'ERROR' && !found.failures.length) found.failures.push({ step: 'gate', check: '(no verdict)', message: gateOut.trim().split('\n').slice(-5).join(' | ') });
  const keep = o.keep || verdict !== 'PASS';
  if (!keep) rmSync(dir, { recursive: true, force: true });
  return { seed, choices, verdict, exitCode, wallMs, ...found, ...(keep ? { dir } : {}) };
}
