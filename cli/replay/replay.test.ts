import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { serveWrapped, type EmbeddedTarget } from '../../conformance/embedded.ts';
import { MUTANTS_BY_ID } from '../../conformance/testing/mutants/index.ts';
import { failuresOf } from '../../reports/repro/failures-file.ts';
import { runContract } from '../gate/contract-step.ts';
import { externalTarget } from '../gate/target.ts';
import { replayFailures } from './run.ts';
import { fingerprintCredentials } from '../../reports/repro/fingerprint.ts';

// From a red run to a fix, through the CLI as a user runs it, output redirected to files:
// conformance against a faulty target (two mutants) prints the target's behaviour and the
// reproductions, no escape sequence and no lendcheck code frame; `replay` says "still failing"
// there and "fixed" against the clean sandbox; the gate with GITHUB_ACTIONS writes the job
// summary and one annotation per failed check, and `gate --rerun-failed` replays its last run.

const BIN = resolve(import.meta.dirname, '..', 'bin.js');
const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-replay-'));
const CHECKS = ['auth.missing-header', 'endpoint.rates.get', 'errors.position-not-found'];
let faulty: EmbeddedTarget;
let clean: EmbeddedTarget;
// The tests after the first run side by side (most of their time is spawned CLIs starting and
// waiting); those that send requests at the same time get targets of their own, so no rate-limit
// bucket (the public one is per address and sandbox) is shared between them.
let colourFaulty: EmbeddedTarget;
let gateFaulty: EmbeddedTarget;
let gateClean: EmbeddedTarget;

// Withdrawals complete in 1 s (the sandbox's default is 10): the gate's conformance waits for withdrawal.completed.
const faultyTarget = () => {
  const a = MUTANTS_BY_ID.get('auth.403-not-401')!.install({});
  const b = MUTANTS_BY_ID.get('shape.rate-as-string')!.install({});
  return serveWrapped((req, next) => a(req, (r) => b(r, next)), { profile: defaultProfile, validateResponses: false, withdrawalDelaySeconds: 1 });
};
const cleanTarget = () => serveWrapped((req, next) => next(req), { profile: defaultProfile, validateResponses: false, withdrawalDelaySeconds: 1 });

beforeAll(async () => {
  [faulty, clean, colourFaulty, gateFaulty, gateClean] = await Promise.all([faultyTarget(), cleanTarget(), faultyTarget(), faultyTarget(), cleanTarget()]);
});
afterAll(async () => {
  for (const t of [faulty, clean, colourFaulty, gateFaulty, gateClean]) await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs the CLI with stdout and stderr redirected to a file, as `> out.txt 2>&1` would. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const file = join(tmp, `out-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  const fd = openSync(file, 'w');
  const keys = { LENDCHECK_API_KEY: faulty.apiKey, LENDCHECK_API_KEY_2: faulty.apiKey2 ?? '', LENDCHECK_BURST_KEY: faulty.burstKey ?? '' };
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LENDCHECK_|GITHUB_|NO_COLOR|FORCE_COLOR|CI$|VITEST)/.test(k)));
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', fd, fd], env: { ...base, ...keys, ...env } });
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  closeSync(fd);
  return { code, out: readFileSync(file, 'utf8') };
}

function noKey(text: string, where: string): void {
  for (const k of [faulty.apiKey, faulty.apiKey2, faulty.burstKey].filter(Boolean) as string[]) expect(text.includes(k), `${k} in ${where}`).toBe(false);
}

describe('a red run, its reproductions and their replay, through the CLI', () => {
  const dir = join(tmp, 'conformance');

  it('conformance output in a file: the target behaviour and reproductions, no escape sequences, no lendcheck code frames', async () => {
    const r = await cli(['conformance', '--base-url', faulty.url, '--only', CHECKS.join(','), '--report-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/\x1b\[/);
    // No frame of lendcheck's own code: Vitest's code frame of the suite, stack lines, its source.
    expect(r.out).not.toMatch(/conformance\.suite\.ts:\d+/);
    expect(r.out).not.toMatch(/throw new Error|throw checkFailed|^\s+at .*\.(ts|js):\d+/m);
    expect(r.out).not.toMatch(/^\s*\d+\s*\|/m);
    // The target's behaviour on the console (quiet: no Vitest output unless --verbose); its
    // reproductions in the files the console names.
    expect(r.out).toContain('POST /lend without a key is refused: expected 401 authentication_failed / received 403 authentication_failed');
    expect(r.out).toMatch(/reproductions in \S+failures\.json; rerun them with: (lendcheck|node \S*cli\/bin\.js) replay /);
    const repro = readFileSync(join(dir, 'failures.json'), 'utf8');
    expect(repro).toMatch(/"url": "http:\/\/127\.0\.0\.1:\d+\/v1\/rates"/);
    // One line per failed check at the end, with its requirement ids; the passing check is not there.
    const summary = r.out.slice(r.out.lastIndexOf('failed checks ('));
    expect(summary.split('\n').filter((l) => l.startsWith('  ✗ '))).toEqual([
      expect.stringMatching(/^ {2}✗ \[AUTH-1, AUTH-4, ERR-authentication_failed, SHAPE-error\] conformance\/auth\.missing-header: POST \/lend without a key is refused/),
      expect.stringMatching(/^ {2}✗ \[EP-rates, .*\] conformance\/endpoint\.rates\.get: /),
    ]);
    noKey(r.out, 'the output');
    for (const f of readdirSync(dir)) noKey(readFileSync(join(dir, f), 'utf8'), f);
    const failures = JSON.parse(readFileSync(join(dir, 'failures.json'), 'utf8'));
    expect(failures.failures.map((f: { id: string }) => f.id)).toEqual(['auth.missing-header', 'endpoint.rates.get']);
    expect(failures.run).toMatchObject({ baseUrl: faulty.url, seed: expect.any(Number) });
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<failure[^>]*><!\[CDATA\[POST \/lend without a key is refused[\s\S]*breaks AUTH-1[\s\S]*curl -sS -i/);
  }, 120_000);

  it('replays contract checks too: still failing on the faulty target, fixed on the clean one', async () => {
    const target = await externalTarget({ baseUrl: faulty.url, apiKey: faulty.apiKey });
    const part = await runContract({ target, profile: defaultProfile });
    await target.close();
    const failed = part.checks.filter((c) => c.status === 'failed').map((c) => c.id);
    expect(failed.length).toBeGreaterThan(0);
    const credentials = fingerprintCredentials(faulty.url, { apiKey: faulty.apiKey });
    const file = failuresOf({ runId: 'r', target: faulty.url, profile: defaultProfile.name, startedAt: part.startedAt, parts: [part] }, { baseUrl: faulty.url, credentials });
    const still = await replayFailures(file, { apiKey: faulty.apiKey });
    expect(still.map((o) => o.verdict)).toEqual(failed.map(() => 'still failing'));
    // Another target: passing there is no fix of the run's target (cli/replay/same-target.test.ts has "fixed").
    const fixed = await replayFailures(file, { apiKey: clean.apiKey, baseUrl: clean.url });
    expect(fixed.map((o) => o.verdict)).toEqual(failed.map(() => 'passes now'));
  }, 120_000);

  it.concurrent('colour only when forced (FORCE_COLOR) and never under NO_COLOR', async () => {
    const [forced, off] = await Promise.all([
      cli(['conformance', '--base-url', colourFaulty.url, '--only', 'auth.missing-header', '--report-dir', join(tmp, 'colour-forced')], { FORCE_COLOR: '1' }),
      cli(['conformance', '--base-url', colourFaulty.url, '--only', 'auth.missing-header', '--report-dir', join(tmp, 'colour-off')], { FORCE_COLOR: '1', NO_COLOR: '1' }),
    ]);
    expect(forced.out).toMatch(/\x1b\[/);
    expect(off.out).not.toMatch(/\x1b\[/);
  }, 120_000);

  it.concurrent('replay: "still failing" against the faulty target, "fixed" against the clean sandbox', async () => {
    const still = await cli(['replay', join(dir, 'failures.json')]);
    expect(still.code).toBe(1);
    expect(still.out).toMatch(/^still failing {2}conformance\/auth\.missing-header \[AUTH-1, AUTH-4, ERR-authentication_failed, SHAPE-error\]: .*received 403/m);
    expect(still.out).toMatch(/^still failing {2}conformance\/endpoint\.rates\.get/m);
    expect(still.out).toContain('replay: 0 fixed, 2 still failing, 0 not replayed');
    // The clean sandbox is another target: the checks pass there, which is not called fixed (exit 3).
    const fixed = await cli(['replay', join(dir, 'failures.json'), '--base-url', clean.url]);
    expect(fixed.code).toBe(3);
    expect(fixed.out).toMatch(/^replay: not the run's target and keys.*changed: the target: the run was against http:\/\/127\.0\.0\.1:\d+\/v1, this replay against http/m);
    expect(fixed.out).toMatch(/^passes now {2}conformance\/auth\.missing-header/m);
    expect(fixed.out).toMatch(/^passes now {2}conformance\/endpoint\.rates\.get/m);
    expect(fixed.out).not.toMatch(/^fixed/m);
    noKey(still.out + fixed.out, 'replay output');
  }, 120_000);

  it.concurrent('the gate with GITHUB_ACTIONS: a job summary and one ::error per failed check; --rerun-failed replays its last run', async () => {
    const reports = join(tmp, 'gate');
    const stepSummary = join(tmp, 'step-summary.md');
    const r = await cli(['gate', '--base-url', gateFaulty.url, '--only', 'conformance', '--report-dir', reports], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary });
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/\x1b\[/);
    const md = readFileSync(stepSummary, 'utf8');
    const failed = [...r.out.matchAll(/^ {2}✗ \[[^\]]*\] conformance\/(\S+):/gm)].map((m) => m[1]);
    expect(failed).toEqual(expect.arrayContaining(['auth.missing-header', 'endpoint.rates.get']));
    expect(md).toMatch(/^## lendcheck: ❌ FAIL$/m);
    expect(md).toMatch(/^\| conformance \| ❌ FAIL \| \d+ \| \d+ \| \d+ \|/m);
    expect(md).toMatch(/<details>\n<summary><b>conformance\/auth\.missing-header<\/b> — breaks `AUTH-1`, `AUTH-4`[^\n]*<\/summary>\n\n```text\nPOST \/lend without a key is refused[\s\S]*?```sh\n# reproduce:\ncurl -sS -i [^\n]*'http:\/\/127\.0\.0\.1:\d+\/v1\/lend'[\s\S]*?```\n\n<\/details>/);
    expect((md.match(/<details>/g) ?? []).length).toBe(failed.length);
    // One annotation per failed check, on one line each, escaped as GitHub reads it.
    const errors = r.out.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(failed.length);
    expect(errors).toContainEqual(expect.stringMatching(/^::error title=lendcheck conformance\/auth\.missing-header \[AUTH-1%2C AUTH-4%2C ERR-authentication_failed%2C SHAPE-error\]::POST \/lend without a key is refused: expected 401/));
    noKey(r.out + md, 'the gate output and summary');
    const [run] = readdirSync(reports).filter((n) => /^\d{8}T/.test(n));
    noKey(readFileSync(join(reports, run, 'failures.json'), 'utf8'), 'the gate failures.json');
    const html = readFileSync(join(reports, run, 'index.html'), 'utf8');
    expect(html).toMatch(/<pre class="repro" tabindex="0"># reproduce:\ncurl -sS -i /);

    const still = await cli(['gate', '--rerun-failed', '--report-dir', reports]);
    expect(still.code).toBe(1);
    expect(still.out).toMatch(/^still failing {2}conformance\/auth\.missing-header/m);
    const fixed = await cli(['gate', '--rerun-failed', '--report-dir', reports, '--base-url', gateClean.url]);
    expect(fixed.out).toMatch(/^passes now {2}conformance\/auth\.missing-header/m);
    expect(fixed.out).toMatch(/^passes now {2}conformance\/endpoint\.rates\.get/m);
    expect(fixed.out).not.toMatch(/^still failing|^fixed/m);
    expect(fixed.code).toBe(3);
  }, 240_000);

});
