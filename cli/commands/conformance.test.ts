import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../main.ts';
import { exitCodeOf } from './conformance.ts';
import { InputError } from '../exit-codes.ts';

// The command as a user runs it: one child process through Vitest's Node API against the
// embedded sandbox (two checks, to stay quick); the refusal of a production key and the
// exit-code rule in-process.

const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-conf-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lendcheck conformance', () => {
  it('refuses a ck_live_ key without --read-only, naming the flag and not the key', async () => {
    // An input error: thrown to the CLI's top level, which prints its one line and exits 2 (cli/mistakes/).
    const e = await buildProgram().parseAsync(['node', 'lendcheck', 'conformance', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'ck_live_do_not_print_me']).catch((x: unknown) => x as Error);
    expect(e).toBeInstanceOf(InputError);
    expect((e as Error).message).toMatch(/^--api-key: .*--read-only/);
    expect((e as Error).message).not.toContain('do_not_print_me');
  });

  it('exits 0 only when every applicable check passed', () => {
    expect(exitCodeOf({ status: 'passed', figures: { passed: 3, failed: 0 } })).toBe(0);
    expect(exitCodeOf({ status: 'failed', figures: { passed: 3, failed: 1 } })).toBe(1);
    // All skipped: nothing observed, INCOMPLETE (3), never a pass nor a FAIL.
    expect(exitCodeOf({ status: 'skipped', figures: { passed: 0, failed: 0 } })).toBe(3);
  });

  it('runs the selected checks through Vitest against the embedded sandbox, exits 0 and writes both reports', { timeout: 120_000 }, () => {
    const r = spawnSync(process.execPath, [bin, 'conformance', '--only', 'endpoint.rates.get,errors.position-not-found', '--report-dir', dir, '--reporter', 'dot'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, LENDCHECK_BASE_URL: '', LENDCHECK_API_KEY: '' },
    });
    expect(r.stdout + r.stderr).toMatch(/conformance: PASSED — 2 passed, 0 failed, 0 skipped/);
    expect(r.status).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    // In the plan's order (endpoint checks run late, to judge answers the run already got), not --only's.
    expect(json.checks.map((c: { id: string }) => c.id).sort()).toEqual(['endpoint.rates.get', 'errors.position-not-found']);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<testsuite');
  });
});
