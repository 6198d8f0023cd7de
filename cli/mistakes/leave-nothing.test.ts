import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../../detect/index.ts';
import { runConformance } from '../../conformance/suite/run.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { defaultProfile } from '../../contract/index.ts';
import { createRedactor } from '../../reports/redact.ts';
import { runGate } from '../gate/run.ts';
import { GATE_STEPS } from '../gate/steps.ts';
import { Progress } from '../gate/progress.ts';
import type { PartResult } from '../../kernel/results.ts';

// Leave nothing behind: after `profile detect`, conformance's webhook checks and each step of the
// gate against a sandbox, GET /webhooks lists none of their subscriptions; detection names the
// user-id prefix its positions stay under.

const KEY = 'ck_test_partner_a_growth';
// The gate's main key, as on the embedded sandbox: Scale. The gate's conformance sends about a
// thousand requests; on the Growth key (a burst of 500, then 5 a second) it waited two minutes
// for rate-limit room, and what this file judges (the subscriptions left) is the same on either
// key of partner A (subscriptions are the partner's).
const GATE_KEY = 'ck_test_partner_a_scale';
let sb: SandboxServer;

const subscriptions = async (): Promise<unknown[]> => {
  const r = await request(`${sb.url}/webhooks`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await r.body.json()) as { webhooks: unknown[] }).webhooks;
};

// The gate's chaos step, on a sandbox of its own (see its test below): started with the file and
// judged in its test, as it shares nothing with the other tests and is mostly a wait (about 30 s).
let chaosRun: Promise<{ chaos: PartResult | undefined; left: unknown[] }>;

async function runChaosStep(): Promise<{ chaos: PartResult | undefined; left: unknown[] }> {
  const fast = await startSandboxServer({ dbPath: ':memory:', timeScale: 3600 });
  const dir = mkdtempSync(join(tmpdir(), 'lendcheck-leave-'));
  try {
    const baseUrl = fast.url.replace(/\/$/, '').replace(/(\/v1)?$/, '/v1');
    const target = { baseUrl, label: 'a fast-clock sandbox', embedded: false, tierKeys: {}, apiKey: KEY, hasControls: true, timeScale: 3600, close: async () => {} };
    const steps = GATE_STEPS.filter((s) => s.name === 'chaos');
    const { summary } = await runGate({ target, profile: defaultProfile, reportDir: dir, steps, progress: new Progress(new PassThrough(), createRedactor([KEY]), false), runId: 'leave-nothing-chaos' });
    const r = await request(`${fast.url}/webhooks`, { headers: { authorization: `Bearer ${KEY}` } });
    return { chaos: summary.parts.find((p) => p.part === 'chaos'), left: ((await r.body.json()) as { webhooks: unknown[] }).webhooks };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await fast.close();
  }
}

beforeAll(async () => {
  chaosRun = runChaosStep();
  chaosRun.catch(() => {}); // judged in its test
  // A time scale so the gate's chaos step sees its retries within seconds, as the embedded gate does.
  sb = await startSandboxServer({ dbPath: ':memory:', timeScale: 600 });
});
afterAll(() => sb?.close());

describe('lendcheck leaves no subscription on a target', () => {
  it('profile detect deletes every subscription it made, and names the user-id prefix', { timeout: 180_000 }, async () => {
    const d = await detectProfile({ baseUrl: sb.url, apiKey: KEY });
    expect(d.options['webhooks.listAndDelete']).toMatchObject({ detected: true, value: true });
    expect(d.leftBehind?.subscriptions).toEqual([]);
    expect(d.leftBehind?.userPrefix).toMatch(/^detect-[a-z0-9]+-$/);
    expect(await subscriptions()).toEqual([]);
  });
  it("conformance's webhook checks delete theirs", { timeout: 180_000 }, async () => {
    const r = await runConformance({ baseUrl: sb.url, apiKey: KEY, apiKey2: 'ck_test_partner_b_growth', only: ['hooks.*'], inProcess: true });
    expect(Number(r.figures.passed)).toBeGreaterThan(0);
    expect(await subscriptions()).toEqual([]);
  });
  // The gate's contract and conformance steps here; its chaos step below, on a sandbox of its own
  // whose clock runs 3,600 times fast (at 600× the schedule's 26.6 h take minutes). At real time the
  // chaos step is the retry watch, whose clean run asserts the same (chaos/retry-watch/run.test.ts).
  it("the gate's contract and conformance steps delete theirs", { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendcheck-leave-'));
    try {
      const baseUrl = sb.url.replace(/\/$/, '').replace(/(\/v1)?$/, '/v1');
      const target = { baseUrl, label: 'a sandbox the test keeps open', embedded: false, tierKeys: {}, apiKey: GATE_KEY, apiKey2: 'ck_test_partner_b_growth', hasControls: true, timeScale: 600, close: async () => {} };
      const steps = GATE_STEPS.filter((s) => ['contract', 'conformance'].includes(s.name));
      const { summary } = await runGate({ target, profile: defaultProfile, reportDir: dir, steps, progress: new Progress(new PassThrough(), createRedactor([KEY, GATE_KEY]), false), runId: 'leave-nothing' });
      expect(summary.parts.find((p) => p.part === 'conformance')?.status, 'the conformance step ran').not.toBe('skipped');
      expect(await subscriptions()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("the gate's chaos step deletes its receiver's subscription", { timeout: 180_000 }, async () => {
    const { chaos, left } = await chaosRun;
    // What is judged here is what the step leaves, not its timing (a loaded machine delays a
    // 3,600× schedule's timers past its tolerance; chaos/schedule/run.test.ts judges those).
    expect(chaos?.status, 'the chaos step ran its schedule').not.toBe('skipped');
    expect(chaos?.figures.observedToEnd, 'the schedule was observed to its end').toBe('yes');
    expect(left).toEqual([]);
  });
});
