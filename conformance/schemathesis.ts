import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { openApiText } from '../contract/openapi.ts';
import type { Profile } from '../contract/profile.ts';
import type { CheckResult, PartResult } from '../contract/results.ts';
import { createRedactor } from '../reports/redact.ts';
import { ensureSchemathesis as ensureUntyped } from '../scripts/ensure-schemathesis.mjs';

const ensureSchemathesis = ensureUntyped as () => string;

// Schemathesis (a Python property-based API tester) against a target, fed the OpenAPI
// document generated for the profile, with every check and all four phases. Its JUnit
// (one test case per operation) becomes a part of its own in the results format.

export const SCHEMATHESIS_CONFIG = fileURLToPath(new URL('./schemathesis.toml', import.meta.url));

export interface SchemathesisOptions {
  baseUrl: string;
  apiKey: string;
  profile: Profile;
  /** Also test the /sandbox controls (only a target that has them). */
  controls: boolean;
  seed?: number;
  /** Examples per operation and phase: the budget. */
  maxExamples?: number;
  /** Where schemathesis-junit.xml and schemathesis.json go. */
  reportDir?: string;
  /** Kill the run after this long (the part then fails, saying so). */
  timeoutMs?: number;
}

export const SCHEMATHESIS_DEFAULTS = { seed: 1, maxExamples: 10, timeoutMs: 10 * 60_000 };

interface JunitCase {
  name: string;
  time?: string;
  failure?: { message?: string; '#text'?: string } | Array<{ message?: string; '#text'?: string }>;
  error?: { message?: string; '#text'?: string };
  skipped?: { message?: string } | string;
}

/** One check per operation from Schemathesis' JUnit: failed with its ST codes and first report. */
export function checksFromJunit(xml: string, redact: (s: string) => string = (s) => s): CheckResult[] {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'testcase' || n === 'testsuite' }).parse(xml) as {
    testsuites?: { testsuite?: Array<{ testcase?: JunitCase[] }> };
  };
  const cases = (doc.testsuites?.testsuite ?? []).flatMap((s) => s.testcase ?? []);
  return cases.map((c): CheckResult => {
    const base = { id: `schemathesis:${c.name}`, title: `Schemathesis: ${c.name}`, requirements: [], durationMs: Math.round(Number(c.time ?? 0) * 1000), notes: [] };
    const failures = [c.failure ?? [], c.error ?? []].flat();
    if (failures.length) {
      const codes = failures.map((f) => f.message ?? 'failure').join(', ');
      const text = failures.map((f) => f['#text'] ?? '').join('\n').trim();
      return { ...base, status: 'failed', message: redact(`expected every Schemathesis check to hold / received ${codes}\n${text}`.slice(0, 4000)) };
    }
    if (c.skipped !== undefined) {
      const why = typeof c.skipped === 'string' ? c.skipped : c.skipped.message;
      return { ...base, status: 'skipped', message: why || 'skipped by Schemathesis' };
    }
    return { ...base, status: 'passed' };
  });
}

/** The case count and the phases from the console summary ("1165 generated, 1165 passed, 32 skipped"). */
export function figuresFromOutput(out: string): Record<string, number> {
  const m = /(\d+) generated(?:, (\d+) found (\d+) unique failures?)?(?:, (\d+) passed)?(?:, (\d+) skipped)?/.exec(out);
  if (!m) return {};
  return { cases: Number(m[1]), ...(m[3] ? { uniqueFailures: Number(m[3]) } : { uniqueFailures: 0 }), ...(m[5] ? { casesSkipped: Number(m[5]) } : {}) };
}

function skipped(o: SchemathesisOptions, startedAt: string, reason: string): PartResult {
  return { part: 'schemathesis', name: 'schemathesis', status: 'skipped', skipReason: reason, target: o.baseUrl, profile: o.profile.name, startedAt, durationMs: 0, checks: [], figures: {} };
}

export function schemathesisArgs(o: SchemathesisOptions, docFile: string, junitFile: string): string[] {
  const seed = o.seed ?? SCHEMATHESIS_DEFAULTS.seed;
  return [
    '--config-file', SCHEMATHESIS_CONFIG,
    'run', docFile,
    '--url', o.baseUrl,
    '--checks', 'all',
    '--phases', 'examples,coverage,fuzzing,stateful',
    '--max-examples', String(o.maxExamples ?? SCHEMATHESIS_DEFAULTS.maxExamples),
    '--seed', String(seed),
    '--workers', '1',
    '--request-timeout', '10',
    '--no-color',
    '--report', 'junit',
    '--report-junit-path', junitFile,
    // The target's own rules for a sandbox-less service: the controls are lendcheck's, not the spec's.
    ...(o.controls ? [] : ['--exclude-tag', 'sandbox']),
  ];
}

/** Runs Schemathesis and returns its part; skipped (with the reason) where it cannot be installed. */
export async function runSchemathesis(o: SchemathesisOptions): Promise<PartResult> {
  const startedAt = new Date().toISOString();
  let bin: string;
  try {
    bin = ensureSchemathesis();
  } catch (e) {
    return skipped(o, startedAt, `Schemathesis is not available: ${(e as Error).message}`);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-schemathesis-'));
  const redactor = createRedactor([o.apiKey]);
  try {
    const docFile = join(tmp, 'openapi.json');
    const junitFile = join(tmp, 'junit.xml');
    writeFileSync(docFile, openApiText(o.profile));
    const t0 = Date.now();
    // The key goes in through the environment and the config's ${VAR}, so it shows in no process list.
    const run = await spawnCollect(bin, schemathesisArgs(o, docFile, junitFile), {
      env: { ...process.env, LENDCHECK_SCHEMATHESIS_AUTH: `Bearer ${o.apiKey}`, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' },
      cwd: tmp,
      timeoutMs: o.timeoutMs ?? SCHEMATHESIS_DEFAULTS.timeoutMs,
    });
    const durationMs = Date.now() - t0;
    const output = redactor.text(run.output);
    let checks: CheckResult[] = [];
    try {
      checks = checksFromJunit(readFileSync(junitFile, 'utf8'), redactor.text);
    } catch {
      checks = [];
    }
    const failed = checks.filter((c) => c.status === 'failed').length;
    const passed = checks.filter((c) => c.status === 'passed').length;
    // Exit 0: every check held; 1: failures (in the JUnit); anything else: it could not run.
    const broken = run.timedOut || (run.code !== 0 && run.code !== 1) || (run.code === 1 && failed === 0) || checks.length === 0;
    if (broken) {
      checks.push({
        id: 'schemathesis:run', title: 'Schemathesis ran to the end', requirements: [], status: 'failed', durationMs, notes: [],
        message: `expected schemathesis to finish with its JUnit / received ${run.timedOut ? `no end within ${o.timeoutMs ?? SCHEMATHESIS_DEFAULTS.timeoutMs} ms` : `exit ${run.code}`}: ${output.trim().split('\n').slice(-15).join('\n')}`,
      });
    }
    const part: PartResult = {
      part: 'schemathesis',
      name: 'schemathesis',
      status: failed || broken ? 'failed' : passed ? 'passed' : 'skipped',
      ...(failed || broken || passed ? {} : { skipReason: 'Schemathesis tested no operation' }),
      target: o.baseUrl,
      profile: o.profile.name,
      startedAt,
      durationMs,
      checks,
      figures: { ...figuresFromOutput(output), operations: checks.filter((c) => c.id !== 'schemathesis:run').length, passed, failed: failed + (broken ? 1 : 0), seed: o.seed ?? SCHEMATHESIS_DEFAULTS.seed, maxExamples: o.maxExamples ?? SCHEMATHESIS_DEFAULTS.maxExamples },
    };
    if (o.reportDir) {
      mkdirSync(o.reportDir, { recursive: true });
      for (const f of readdirSync(tmp)) if (f === 'junit.xml') writeFileSync(join(o.reportDir, 'schemathesis-junit.xml'), redactor.text(readFileSync(junitFile, 'utf8')));
      writeFileSync(join(o.reportDir, 'schemathesis.json'), `${JSON.stringify(redactor.value(part), null, 2)}\n`);
      writeFileSync(join(o.reportDir, 'schemathesis.log'), output);
    }
    return part;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function spawnCollect(bin: string, args: string[], o: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number }) {
  return new Promise<{ code: number | null; output: string; timedOut: boolean }>((resolve, reject) => {
    const child = spawn(bin, args, { env: o.env, cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, o.timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}
