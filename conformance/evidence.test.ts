import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../contract/index.ts';
import { allChecks } from './registry.ts';
import { runChecks, withEvidence } from './runner.ts';
import { COSTS } from './budget/costs.ts';

// No pass without evidence: against a target that never answers, no check may say PASSED (a
// storm nobody answered, "no 500 seen" in no answers, headers checked on none were all passes
// once), and `lendcheck conformance` stops at once, naming the address and the error.

const DEAD = 'http://127.0.0.1:1/v1';

describe('no pass without evidence', () => {
  it('a dead target gets no PASSED from any check (the runner alone, past the reachability gate)', { timeout: 120_000 }, async () => {
    const r = await runChecks({ baseUrl: DEAD, apiKey: 'ck_test_dead_1', apiKey2: 'ck_test_dead_2', profile: defaultProfile, seed: 1, say: () => {} });
    expect(r.checks.length).toBeGreaterThan(50);
    expect(r.checks.filter((c) => c.status === 'passed').map((c) => c.id)).toEqual([]);
    expect(r.status).not.toBe('passed');
  });

  it('a pass with no answered request behind it becomes a skip that says so', () => {
    const check = allChecks(defaultProfile).find((c) => c.id === 'errors.internal-error-shape')!;
    const passed = { id: check.id, title: check.title, requirements: [], status: 'passed' as const, durationMs: 1, notes: [] };
    const unanswered = { method: 'GET', url: DEAD, requestHeaders: {}, responseHeaders: {}, status: null, durationMs: 1, error: 'ECONNREFUSED' };
    const out = withEvidence(check, passed, [], [unanswered, unanswered]);
    expect(out.status).toBe('skipped');
    expect(out.message).toMatch(/none of the 2 requests made in the whole run was answered/);
    expect(withEvidence(check, passed, [], [{ ...unanswered, status: 200 }]).status).toBe('passed');
  });

  it('`lendcheck conformance` against a dead address exits 2 (an input error) at once, naming the address and the error, before any check', { timeout: 60_000 }, async () => {
    const t0 = performance.now();
    const e = (await promisify(execFile)('node', ['cli/bin.js', 'conformance', '--base-url', DEAD, '--api-key', 'ck_test_dead_1']).catch((x: unknown) => x)) as { code: number; stderr: string };
    // The preflight (cli/preflight/) refuses a target that does not answer: one line, exit 2.
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/the target does not answer: http:\/\/127\.0\.0\.1:1.*ECONNREFUSED/);
    expect(e.stderr.trim().split('\n')).toHaveLength(1);
    // Most of this is loading the CLI's sources (3-4 s of CPU); the bound leaves room for a busy machine.
    expect(performance.now() - t0).toBeLessThan(45_000);
  });
});

describe('the budget\'s cost table', () => {
  it('knows what every registered check costs (measure again with bench/conformance-costs.ts when this fails)', () => {
    const missing = allChecks(defaultProfile).map((c) => c.id).filter((id) => COSTS[id] === undefined);
    expect(missing).toEqual([]);
  });
});
