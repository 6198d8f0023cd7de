import { describe, it, expect, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultProfile } from '../../contract/index.ts';
import type { CheckResult, PartResult } from '../../kernel/results.ts';
type CheckStatus = CheckResult['status'];
import { createRedactor } from '../../reports/redact.ts';
import { runGate } from './run.ts';
import { runBin } from '../testing/run-bin.ts';
import { Progress } from './progress.ts';
import { GATE_STEPS, type GateStep } from './steps.ts';
import { keysByTier, refuseLiveKeys, type GateTarget } from './target.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'ck_test_partner_a_growth';
const target = (over: Partial<GateTarget> = {}): GateTarget => ({
  baseUrl: 'http://127.0.0.1:9/v1', label: 'fake target', embedded: false, apiKey: KEY, tierKeys: {}, hasControls: false, close: async () => {}, ...over,
});
const part = (p: PartResult['part'], status: CheckStatus, message?: string): PartResult => ({
  part: p, name: p, status, startedAt: new Date().toISOString(), durationMs: 5, figures: {},
  checks: [{ id: `${p}-1`, title: `${p} check`, requirements: [], status, durationMs: 1, notes: [], ...(message ? { message } : {}) }],
});

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += String(d)));
  return { out, text: () => text };
}

describe('the gate', () => {
  it('runs steps in order, skips those whose needs the target lacks (with the reason), and fails on any failure', async () => {
    const ran: string[] = [];
    const steps: GateStep[] = [
      { name: 'a', part: 'conformance', title: 'A', needs: ['api-key'], run: async (ctx) => (ran.push('a'), ctx.log(`using ${ctx.target.apiKey}`), part('conformance', 'passed')) },
      { name: 'b', part: 'load', title: 'B', needs: ['tier-keys'], run: async () => (ran.push('b'), part('load', 'passed')) },
      { name: 'c', part: 'chaos', title: 'C', needs: ['sandbox-controls'], run: async () => (ran.push('c'), part('chaos', 'passed')) },
      { name: 'd', part: 'certify', title: 'D', needs: [], run: async () => (ran.push('d'), part('certify', 'failed', `expected 401 / received 200 with Bearer ${KEY}`)) },
    ];
    const cap = capture();
    const { summary, files } = await runGate({ target: target(), profile: defaultProfile, reportDir: dir, steps, progress: new Progress(cap.out, createRedactor([KEY]), false), runId: 'gate-order' });
    expect(ran).toEqual(['a', 'd']);
    expect(summary.parts.map((p) => [p.part, p.status])).toEqual([['conformance', 'passed'], ['load', 'skipped'], ['chaos', 'skipped'], ['certify', 'failed']]);
    // certify reported 5 ms; the step's wall time is at least that and is what the report shows.
    expect(summary.parts[3].durationMs).toBeGreaterThanOrEqual(5);
    expect(summary.parts[1].skipReason).toBe('skipped: no key for tier starter, growth, scale (--key-starter or LENDCHECK_KEY_STARTER)');
    expect(summary.parts[2].skipReason).toMatch(/no sandbox controls/);
    expect(summary.verdict).toBe('failed');
    expect(files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort()).toEqual(['failures.json', 'index.html', 'junit.xml', 'summary.json']);
    // Plain lines (not a TTY), the skip reasons shown, one verdict, the report path, no key.
    const log = cap.text();
    expect(log).not.toContain('\r');
    expect(log).toMatch(/^SKIP \[2\/4\] load \(0 ms\) — skipped: no key for tier/m);
    expect(log).toMatch(/^verdict: FAIL in .* — failed: certify — skipped: load, chaos$/m);
    expect(log).toContain(`report: ${join(dir, 'gate-order', 'index.html')}`);
    expect(log).toContain('using ck_test_***');
    expect(log).not.toContain(KEY);
    expect(readFileSync(join(dir, 'gate-order', 'index.html'), 'utf8')).not.toContain(KEY);
  });

  it('a part that throws, or that returns a malformed result fails, saying so', async () => {
    const steps: GateStep[] = [
      { name: 'throws', part: 'load', title: 'T', needs: [], run: async () => { throw new Error('k6 exited 107'); } },
      { name: 'malformed', part: 'chaos', title: 'X', needs: [], run: async () => ({ part: 'chaos', status: 'great' }) as unknown as PartResult },
    ];
    const cap = capture();
    const { summary } = await runGate({ target: target(), profile: defaultProfile, reportDir: dir, steps, progress: new Progress(cap.out, createRedactor(), false), runId: 'gate-broken' });
    expect(summary.parts.map((p) => p.status)).toEqual(['failed', 'failed']);
    expect(summary.parts[0].checks[0].message).toMatch(/^the part threw: Error: k6 exited 107/);
    expect(summary.parts[1].checks[0].message).toMatch(/outside kernel\/results.ts: .*status/);
    expect(summary.verdict).toBe('failed');
  });

  it('shows a step\'s wall time when the part timed less of it', async () => {
    const steps: GateStep[] = [{ name: 'slow', part: 'chaos', title: 'S', needs: [], run: async () => (await sleep(120), part('chaos', 'passed')) }];
    const { summary } = await runGate({ target: target(), profile: defaultProfile, reportDir: dir, steps, progress: new Progress(capture().out, createRedactor(), false), runId: 'gate-wall' });
    expect(summary.parts[0].durationMs).toBeGreaterThanOrEqual(110);
  });

  it('a step that does not finish in time fails, and the gate goes on', async () => {
    const steps: GateStep[] = [
      { name: 'hangs', part: 'load', title: 'H', needs: [], run: () => new Promise<PartResult>(() => {}) },
      { name: 'after', part: 'certify', title: 'A', needs: [], run: async () => part('certify', 'passed') },
    ];
    const { summary, timedOut } = await runGate({ target: target(), profile: defaultProfile, reportDir: dir, steps, progress: new Progress(capture().out, createRedactor(), false), runId: 'gate-timeout', stepTimeoutMs: 100 });
    expect(timedOut).toEqual(['hangs']);
    expect(summary.parts.map((p) => p.status)).toEqual(['failed', 'passed']);
    expect(summary.parts[0].checks[0].message).toBe('the hangs step did not finish within 100 ms');
  });

  it('on a terminal it redraws one status line in place', async () => {
    const cap = capture();
    const steps: GateStep[] = [{ name: 'a', part: 'certify', title: 'A', needs: [], run: async (ctx) => (ctx.log('half way'), part('certify', 'passed')) }];
    const { summary } = await runGate({ target: target(), profile: defaultProfile, reportDir: dir, steps, progress: new Progress(cap.out, createRedactor(), true), runId: 'gate-tty' });
    expect(summary.verdict).toBe('passed');
    expect(cap.text()).toContain('\r\x1b[K[1/1] a: A');
    expect(cap.text()).toContain('half way');
    expect(cap.text()).toMatch(/verdict: PASS/);
  });

  it('a run whose steps all skipped, or where a step asked for by name skipped, is INCOMPLETE; --allow-skip accepts it', async () => {
    const steps: GateStep[] = [
      { name: 'conformance', part: 'conformance', title: 'C', needs: ['api-key'], run: async () => part('conformance', 'passed') },
      { name: 'chaos', part: 'chaos', title: 'X', needs: ['sandbox-controls'], run: async () => part('chaos', 'passed') },
    ];
    const gate = (runId: string, over: Partial<GateTarget>, verdictRules = {}) => {
      const cap = capture();
      return runGate({ target: target(over), profile: defaultProfile, reportDir: dir, steps, progress: new Progress(cap.out, createRedactor(), false), runId, verdictRules }).then((r) => ({ ...r, log: cap.text() }));
    };
    const allSkipped = await gate('gate-all-skipped', { apiKey: undefined });
    expect(allSkipped.summary.verdict).toBe('incomplete');
    expect(allSkipped.summary.verdictReasons).toEqual([expect.stringMatching(/^every step skipped \(conformance, chaos\)/)]);
    expect(allSkipped.log).toMatch(/^verdict: INCOMPLETE in .* — skipped: conformance, chaos$/m);
    expect(readFileSync(join(dir, 'gate-all-skipped', 'index.html'), 'utf8')).toMatch(/id="verdict">INCOMPLETE</);
    expect(readFileSync(join(dir, 'gate-all-skipped', 'junit.xml'), 'utf8')).toMatch(/<failure[^>]*type="incomplete"/);
    expect(JSON.parse(readFileSync(join(dir, 'gate-all-skipped', 'summary.json'), 'utf8')).verdict).toBe('incomplete');

    // One ran, but chaos was asked for by name and skipped.
    const named = await gate('gate-named-skip', {}, { named: ['conformance', 'chaos'] });
    expect(named.summary.verdict).toBe('incomplete');
    expect(named.summary.verdictReasons).toEqual([expect.stringMatching(/^chaos was asked for by name and skipped: skipped: the target has no sandbox controls/)]);
    // Not named (the default list): a skip with its reason does not block a pass.
    expect((await gate('gate-unnamed-skip', {})).summary.verdict).toBe('passed');
    expect((await gate('gate-allow-skip', {}, { named: ['conformance', 'chaos'], allowSkip: true })).summary.verdict).toBe('passed');
    expect((await gate('gate-allow-all-skipped', { apiKey: undefined }, { allowSkip: true })).summary.verdict).toBe('passed');
  });

  it('a part that could not finish observing makes the run INCOMPLETE, even with --allow-skip; a failure still wins', async () => {
    const pending: PartResult = { ...part('chaos', 'passed'), status: 'incomplete', skipReason: 'evt_1 retry 5 still due at 2026-01-01T00:00:00Z' };
    const run = (runId: string, parts: PartResult[]) =>
      runGate({ target: target(), profile: defaultProfile, reportDir: dir, progress: new Progress(capture().out, createRedactor(), false), runId, verdictRules: { allowSkip: true },
        steps: parts.map((p, i) => ({ name: `s${i}`, part: p.part, title: p.part, needs: [], run: async () => p })) });
    const r = await run('gate-incomplete', [part('conformance', 'passed'), pending]);
    expect(r.summary.verdict).toBe('incomplete');
    expect(r.summary.verdictReasons).toEqual(['s1 is incomplete: evt_1 retry 5 still due at 2026-01-01T00:00:00Z']);
    expect((await run('gate-incomplete-failed', [part('conformance', 'failed'), pending])).summary.verdict).toBe('failed');
  });

  it('registers the four parts after the contract step, in the issue\'s order', () => {
    expect(GATE_STEPS.map((s) => s.name)).toEqual(['contract', 'conformance', 'load', 'chaos', 'certify']);
    expect(GATE_STEPS.find((s) => s.name === 'load')!.needs).toContain('tier-keys');
    // Without controls the chaos step watches retries 1 and 2 at real time (chaos-step.test.ts): it needs a key only.
    expect(GATE_STEPS.find((s) => s.name === 'chaos')!.needs).toEqual(['api-key']);
  });
});

describe('gate targets', () => {
  it('sorts the embedded sandbox keys by tier, first partner first', () => {
    const { tierKeys, all } = keysByTier(['ck_test_partner_a_starter', 'ck_test_partner_a_growth', 'ck_test_partner_a_scale', 'ck_test_partner_b_growth']);
    expect(tierKeys).toEqual({ starter: 'ck_test_partner_a_starter', growth: 'ck_test_partner_a_growth', scale: 'ck_test_partner_a_scale' });
    expect(all).toHaveLength(4);
    expect(keysByTier([{ key: 'ck_test_k1', tier: 'scale', partner: 'p' }]).tierKeys).toEqual({ scale: 'ck_test_k1' });
    // The sandbox's key store form: the second partner's growth key is not taken as a tier key.
    const store = [
      { key: 'ck_test_x1', partnerId: 'pa', tier: 'starter' }, { key: 'ck_test_y2', partnerId: 'pb', tier: 'growth' },
      { key: 'ck_test_x2', partnerId: 'pa', tier: 'growth' }, { key: 'ck_test_x3', partnerId: 'pa', tier: 'scale' },
    ];
    expect(keysByTier(store).tierKeys).toEqual({ starter: 'ck_test_x1', growth: 'ck_test_x2', scale: 'ck_test_x3' });
  });

  it('refuses production keys unless opted in', () => {
    expect(() => refuseLiveKeys({ apiKey: 'ck_live_abc' })).toThrow(/--allow-live/);
    expect(() => refuseLiveKeys({ apiKey: 'ck_live_abc', allowLive: true })).not.toThrow();
    expect(() => refuseLiveKeys({ keyScale: 'ck_test_abc' })).not.toThrow();
  });

  // The three runs of the real command below are separate processes: they go side by side.
  it.concurrent('the command refuses a live key before touching the target, and exits non-zero', async () => {
    const r = await runBin(['gate', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'ck_live_zzzz9999', '--report-dir', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lendcheck: --api-key: a ck_live_ \(production\) key is refused without --allow-live/);
    expect(r.stderr + r.stdout).not.toContain('ck_live_zzzz9999');
  });

  it.concurrent('the command stops at once, exit 2 (an input error), on a target where nothing listens, naming the address and the error', async () => {
    const own = mkdtempSync(join(tmpdir(), 'lendcheck-dead-'));
    const r = await runBin(['gate', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'ck_test_x', '--only', 'contract,chaos', '--report-dir', own]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lendcheck: the target does not answer: http:\/\/127\.0\.0\.1:1: ECONNREFUSED/m);
    // Before any step: no step line, no report.
    expect(r.stdout).not.toMatch(/\[1\/2\]/);
    expect(readdirSync(own)).toEqual([]);
    rmSync(own, { recursive: true, force: true });
  });

  it.concurrent('the command against a target that answers nothing it can check: INCOMPLETE, exit 3; --allow-skip accepts it', async () => {
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    // Side by side, each with its own report directory (and so its own run history).
    const run = (...extra: string[]) => runBin(['gate', '--base-url', base, '--only', 'contract,chaos', '--report-dir', mkdtempSync(join(dir, 'incomplete-')), ...extra], { timeoutMs: 60_000 });
    try {
      const [r, accepted] = await Promise.all([run(), run('--allow-skip')]);
      expect(r.stdout).toMatch(/SKIP \[1\/2\] contract .*nothing could be checked/);
      expect(r.stdout).toMatch(/SKIP \[2\/2\] chaos .*no API key given/);
      expect(r.stdout).toMatch(/^verdict: INCOMPLETE/m);
      expect(r.stdout).toMatch(/every step skipped/);
      expect(r.status).toBe(3);
      expect(accepted.stdout).toMatch(/^verdict: PASS/m);
      expect(accepted.status).toBe(0);
    } finally {
      server.close();
    }
  }, 60_000);
});
