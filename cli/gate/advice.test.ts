import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { defaultProfile } from '../../contract/index.ts';
import type { Advisory, PartResult } from '../../kernel/results.ts';
import { createRedactor } from '../../reports/redact.ts';
import { exitCodeOf } from '../commands/conformance.ts';
import { Progress } from './progress.ts';
import { runGate } from './run.ts';
import type { GateStep } from './steps.ts';
import type { GateTarget } from './target.ts';
import { EXIT_CODES } from './verdict.ts';

// Issue 47: advice shows on the gate's console after the verdict and in its report, and never
// changes the verdict or an exit code.

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-gate-advice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const advice: Advisory = { expected: '`matchedAt` as part 2 types it in a position; the spec does not show the POST /borrow body, so this is advice, not a failure', received: 'matchedAt: expected string, received null (value null)', requirement: 'SHAPE-position-matchedAt', evidence: 'POST /v1/borrow → 201' };
const target: GateTarget = { baseUrl: 'http://127.0.0.1:9/v1', label: 'fake target', embedded: false, apiKey: 'ck_test_partner_a_growth', tierKeys: {}, hasControls: false, close: async () => {} };
const part: PartResult = {
  part: 'conformance', name: 'conformance', status: 'passed', startedAt: new Date().toISOString(), durationMs: 5, figures: { passed: 1, failed: 0, advisories: 1 },
  checks: [{ id: 'endpoint.borrow.create', title: 'POST /borrow answers', requirements: ['EP-borrow'], status: 'passed', durationMs: 1, notes: [], advisories: [advice] }],
};

describe('advice in the gate', () => {
  it('is printed after the verdict and written to the report; the verdict and exit codes are a pass', async () => {
    const out = new PassThrough();
    let log = '';
    out.on('data', (d) => (log += String(d)));
    const steps: GateStep[] = [{ name: 'conformance', part: 'conformance', title: 'C', needs: [], run: async () => part }];
    const { summary } = await runGate({ target, profile: defaultProfile, reportDir: dir, steps, progress: new Progress(out, createRedactor(), false), runId: 'gate-advice' });
    expect(summary.verdict).toBe('passed');
    expect(EXIT_CODES[summary.verdict]).toBe(0);
    expect(exitCodeOf(summary.parts[0]!)).toBe(0);
    expect(log).toMatch(/^verdict: PASS[^\n]*\nadvisories \(1\): [^\n]*never a failure[^\n]*\n {2}! \[SHAPE-position-matchedAt\] conformance\/endpoint\.borrow\.create: expected `matchedAt`.* — POST \/v1\/borrow → 201$/m);
    expect(readFileSync(join(dir, 'gate-advice', 'index.html'), 'utf8')).toContain('Advisories (1)');
    expect(JSON.parse(readFileSync(join(dir, 'gate-advice', 'summary.json'), 'utf8')).parts[0].checks[0].advisories).toEqual([advice]);
  });
});
