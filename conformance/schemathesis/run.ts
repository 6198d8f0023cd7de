import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { openApiText } from '../../contract/openapi/document.ts';
import type { Profile } from '../../contract/profile.ts';
import type { CheckResult, PartResult } from '../../kernel/results.ts';
import { createRedactor } from '../../reports/redact.ts';
import { ensureSchemathesis as ensureUntyped } from './ensure-schemathesis.mjs';
import { schemathesisConfig, SCHEMATHESIS_HOOKS_FILE, unsupportedMethodOff } from './config.ts';

const ensureSchemathesis = ensureUntyped as () => string;

// Schemathesis (a Python property-based API tester) against a target, fed the OpenAPI
// document generated for the profile, with every check and all four phases. Its JUnit
// (one test case per operation) becomes a part of its own in the results format.

export { SCHEMATHESIS_CONFIG } from './config.ts';

export interface SchemathesisOptions {
  baseUrl: string;
  apiKey: string;
  /** A second partner's key: both become Schemathesis peers, so object_level_authorization runs. */
  apiKey2?: string;
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

export const SCHEMATHESIS_DEFAULTS = { seed: 7, maxExamples: 10, timeoutMs: 10 * 60_000 };

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

/**
 * What the NDJSON event stream says: scenarios by status (an `error` is a run-time error,
 * such as a link that cannot resolve), and each check's outcomes by name.
 */
export function figuresFromEvents(ndjson: string): { errors: number; errorTexts: string[]; checks: Record<string, { success: number; failure: number }> } {
  const checks: Record<string, { success: number; failure: number }> = {};
  const errorTexts: string[] = [];
  for (const line of ndjson.split('\n')) {
    if (!line.trim()) continue;
    let ev: Record<string, Record<string, unknown>>;
    try {
      ev = JSON.parse(line) as typeof ev;
    } catch {
      continue;
    }
    const [kind, body] = Object.entries(ev)[0] ?? [];
    if (kind === 'NonFatalError' || kind === 'FatalError') errorTexts.push(String((body?.info as { message?: string } | undefined)?.message ?? body?.value ?? kind).slice(0, 500));
    if (kind === 'ScenarioFinished') {
      if (body.status === 'error') errorTexts.push(`${String((body.recorder as { label?: string } | undefined)?.label)}: scenario error`);
      const byCase = ((body.recorder as { checks?: Record<string, Array<{ name: string; status: string }>> } | undefined)?.checks) ?? {};
      for (const list of Object.values(byCase)) for (const c of list) {
        const rec = (checks[c.name] ??= { success: 0, failure: 0 });
        if (c.status === 'success') rec.success++;
        else rec.failure++;
      }
    }
  }
  return { errors: errorTexts.length, errorTexts, checks };
}

export function schemathesisArgs(o: SchemathesisOptions, docFile: string, junitFile: string, configFile: string, ndjsonFile?: string): string[] {
  const seed = o.seed ?? SCHEMATHESIS_DEFAULTS.seed;
  return [
    '--config-file', configFile,
    'run', docFile,
    '--url', o.baseUrl,
    '--checks', 'all',
    ...(unsupportedMethodOff(o.profile) ? ['--exclude-checks', 'unsupported_method'] : []),
    '--phases', 'examples,coverage,fuzzing,stateful',
    '--max-examples', String(o.maxExamples ?? SCHEMATHESIS_DEFAULTS.maxExamples),
    '--seed', String(seed),
    '--workers', '1',
    '--request-timeout', '10',
    '--no-color',
    '--report', ndjsonFile ? 'junit,ndjson' : 'junit',
    '--report-junit-path', junitFile,
    ...(ndjsonFile ? ['--report-ndjson-path', ndjsonFile] : []),
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
  const redactor = createRedactor([o.apiKey, ...(o.apiKey2 ? [o.apiKey2] : [])]);
  try {
    const docFile = join(tmp, 'openapi.json');
    const junitFile = join(tmp, 'junit.xml');
    const ndjsonFile = join(tmp, 'events.ndjson');
    const configFile = join(tmp, 'schemathesis.toml');
    writeFileSync(docFile, openApiText(o.profile));
    // Keys reach Schemathesis through the environment (one key) or a 0600 file in a private
    // temporary folder (two peers), so they show in no process list.
    if (o.apiKey2) {
      const wfcFile = join(tmp, 'peers.json');
      const user = (name: string, key: string) => ({ name, fixedHeaders: [{ name: 'Authorization', value: `Bearer ${key}` }] });
      writeFileSync(wfcFile, JSON.stringify({ auth: [user('partner_1', o.apiKey), user('partner_2', o.apiKey2)] }), { mode: 0o600 });
      writeFileSync(configFile, schemathesisConfig(o.profile, { wfcFile, peers: ['partner_1', 'partner_2'] }));
    } else writeFileSync(configFile, schemathesisConfig(o.profile, { headerEnv: 'LENDCHECK_SCHEMATHESIS_AUTH' }));
    const t0 = Date.now();
    const run = await spawnCollect(bin, schemathesisArgs(o, docFile, junitFile, configFile, ndjsonFile), {
      env: { ...process.env, LENDCHECK_SCHEMATHESIS_AUTH: `Bearer ${o.apiKey}`, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false', SCHEMATHESIS_HOOKS: SCHEMATHESIS_HOOKS_FILE },
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
    let events: ReturnType<typeof figuresFromEvents> = { errors: 0, errorTexts: [], checks: {} };
    try {
      events = figuresFromEvents(readFileSync(ndjsonFile, 'utf8'));
    } catch {
      // No event stream: the run broke before it started; the check below says so.
    }
    // A run-time error (a link that cannot resolve, a config it could not read) is a failure of the run.
    if (events.errors) {
      checks.push({ id: 'schemathesis:errors', title: 'Schemathesis ran without errors', requirements: [], status: 'failed', durationMs: 0, notes: [], message: redactor.text(`expected 0 errors / received ${events.errors}: ${events.errorTexts.slice(0, 5).join('; ')}`) });
    }
    const off = unsupportedMethodOff(o.profile);
    if (off) checks.push({ id: 'schemathesis:unsupported_method', title: 'Schemathesis unsupported_method', requirements: [], status: 'skipped', durationMs: 0, notes: [], message: `off for this profile: ${off}` });
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
      figures: {
        ...figuresFromOutput(output),
        operations: checks.filter((c) => !['schemathesis:run', 'schemathesis:errors', 'schemathesis:unsupported_method'].includes(c.id)).length,
        passed,
        failed: failed + (broken ? 1 : 0),
        errors: events.errors,
        checksRun: Object.values(events.checks).reduce((n, c) => n + c.success + c.failure, 0),
        objectLevelAuthorization: (events.checks.object_level_authorization?.success ?? 0) + (events.checks.object_level_authorization?.failure ?? 0),
        seed: o.seed ?? SCHEMATHESIS_DEFAULTS.seed,
        maxExamples: o.maxExamples ?? SCHEMATHESIS_DEFAULTS.maxExamples,
      },
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
