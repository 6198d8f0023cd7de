import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partStatus } from '../kernel/part-status.ts';
import type { Advisory, RunSummary } from '../kernel/results.ts';
import { fixtureRunSummary } from './fixture.ts';
import { readRunSummary, writeReports } from './writers.ts';

// Advice (issue 47) reaches every report a run writes, and no verdict: a run whose only
// finding is advice still passes.

const advice: Advisory = {
  expected: '`maturity` as part 2 types it in a position, the list items, the rate entries and markets (part 2); the spec does not show the GET /markets/{asset}/orderbook body, so this is advice, not a failure',
  received: 'maturity: Invalid input: expected string, received null (value null)',
  requirement: 'SHAPE-position',
  evidence: 'GET /v1/markets/USDC/orderbook → 200',
};

function advisedRun(): RunSummary {
  const run = fixtureRunSummary({ failing: false });
  const conf = run.parts.find((p) => p.part === 'conformance')!;
  conf.checks[0] = { ...conf.checks[0]!, advisories: [advice] };
  return run;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lendcheck-advice-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('advisories in the report', () => {
  it('the HTML, JUnit and summary.json carry them, apart from the failures', async () => {
    const run = advisedRun();
    const { dir: out } = await writeReports(run, { reportDir: dir });
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain('Advisories (1)');
    expect(page).toContain('<code>SHAPE-position</code>');
    expect(page).toContain('GET /v1/markets/USDC/orderbook → 200');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('advice [SHAPE-position]: expected `maturity`');
    const summary = readRunSummary(join(out, 'summary.json'));
    expect(summary.parts.find((p) => p.part === 'conformance')!.checks[0]!.advisories).toEqual([advice]);
    expect(summary.verdict).toBe(run.verdict);
  });

  it('never change a status: a part weighs the same with its advice as without', () => {
    const checks = advisedRun().parts.find((p) => p.part === 'conformance')!.checks;
    expect(checks[0]!.advisories).toHaveLength(1);
    expect(partStatus(checks)).toEqual(partStatus(checks.map(({ advisories: _a, ...c }) => c)));
    expect(partStatus([checks[0]!]).status).toBe('passed');
  });
});
