import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { defaultProfile } from '../../contract/index.ts';
import { createRedactor } from '../../reports/redact.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { delayPlugin } from '../../sandbox/test-delay/plugin.ts';
import { runLoad } from '../load/run.ts';
import { runGate } from '../gate/run.ts';
import { Progress } from '../gate/progress.ts';
import type { GateStep } from '../gate/steps.ts';
import type { GateTarget } from '../gate/target.ts';
import { regressionStep } from './regression-step.ts';
import { recordRun } from './record.ts';
import { History } from '../../reports/history/store.ts';

// Done-when of issue 17: two gate runs in a row against the sandbox compare with no
// regression; then one endpoint is slowed (the sandbox's test-only delay) and the third
// run fails the gate, naming that endpoint and the size of its regression. Each run is a
// short mixed-load smoke on the real k6 (about 15 s), so the whole test stays near a minute.

const KEY = 'ck_test_partner_a_scale';
const SLOWED = 'rates.get';
// Generous, because seven engineers' tests share two cores: a noisy run must not look like a regression.
const BOUNDS = 'p95=100%';
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-regression-'));
const historyFile = join(dir, 'history.db');
const delays = new Map<string, number>();
let server: SandboxServer;
let target: GateTarget;

beforeAll(async () => {
  server = await startSandboxServer({ plugins: [...defaultPlugins(), delayPlugin(delays)], validateResponses: false, liquidity: { enabled: false, delaySeconds: 5 }, timeScale: 60 });
  target = { baseUrl: server.url, label: 'sandbox under test', embedded: false, apiKey: KEY, tierKeys: { scale: KEY }, hasControls: true, close: async () => {} };
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const mixedLoad: GateStep = {
  name: 'load',
  part: 'load',
  title: 'mixed load smoke (scale)',
  needs: [],
  run: (ctx) =>
    runLoad({
      scenario: 'mixed', tier: 'scale', smoke: true, baseUrl: ctx.target.baseUrl, apiKey: KEY, reportDir: join(ctx.runDir, 'load'),
      // 90 % of the Scale rate for 8 s: about ten answered requests per endpoint.
      env: { MIXED_SECONDS: '8', TARGET_FRACTION: '0.9' },
    }),
};

async function gateRun(runId: string, baseline: boolean) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += String(d)));
  const steps = [mixedLoad, ...(baseline ? [regressionStep({ baseline: 'last', maxRegression: BOUNDS, historyFile })] : [])];
  const { summary } = await runGate({ target, profile: defaultProfile, reportDir: dir, steps, progress: new Progress(out, createRedactor([KEY]), false), runId });
  recordRun(summary, historyFile, 'gate');
  return { summary, text: () => text, regression: summary.parts.find((p) => p.part === 'regression') };
}

describe('gate --baseline last --max-regression p95=100%', () => {
  it('passes two runs in a row, then fails the third on the slowed endpoint, naming it and the size', async () => {
    const first = await gateRun('run-1', false);
    expect(first.summary.verdict, first.text()).toBe('passed');

    const second = await gateRun('run-2', true);
    const c2 = second.regression!.comparison!;
    expect(c2.baselineRunId).toBe('run-1');
    const compared = c2.rows.filter((r) => r.metric === 'p95' && r.baseline !== null && r.current !== null);
    expect(compared.length).toBeGreaterThanOrEqual(8); // the mix touches a dozen endpoints
    expect(c2.rows.filter((r) => r.regression), second.text()).toEqual([]);
    expect(second.regression!.status, second.text()).toBe('passed');
    expect(second.summary.verdict, second.text()).toBe('passed');

    delays.set(SLOWED, 300);
    const third = await gateRun('run-3', true);
    const c3 = third.regression!.comparison!;
    expect(c3.baselineRunId).toBe('run-2');
    const regressed = c3.rows.filter((r) => r.regression);
    console.log(third.text());
    expect(regressed.map((r) => r.endpoint)).toContain(SLOWED);
    const row = regressed.find((r) => r.endpoint === SLOWED && r.metric === 'p95')!;
    expect(row.current! - row.baseline!).toBeGreaterThan(200);
    expect(row.pValue!).toBeLessThan(0.01);
    const check = third.regression!.checks.find((c) => c.id === `regression:${BOUNDS}`)!;
    expect(check.status).toBe('failed');
    expect(check.message).toMatch(new RegExp(`${SLOWED.replace('.', '\\.')} p95: expected at most p95=100% worse than [\\d.]+ / received [\\d.]+ \\(\\+\\d+(\\.\\d)?%`));
    expect(third.summary.verdict).toBe('failed');
    expect(third.text()).toContain(`REGRESSION (${BOUNDS})`);

    // The failed run is in the history, and is not the next default baseline.
    const h = new History(historyFile);
    try {
      expect(h.runs({}).map((r) => [r.runId, r.verdict])).toEqual([['run-3', 'failed'], ['run-2', 'passed'], ['run-1', 'passed']]);
      expect(h.lastPassing({ target: 'sandbox under test', seq: Infinity })?.runId).toBe('run-2');
    } finally {
      h.close();
    }
  }, 150_000);
});
