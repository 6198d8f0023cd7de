import { describe, it, expect, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defaultProfile } from '../../contract/index.ts';
import type { CheckResult, PartResult } from '../../contract/results.ts';
type CheckStatus = CheckResult['status'];
import { createRedactor } from '../../reports/redact.ts';
import { runGate } from './run.ts';
import { Progress } from './progress.ts';
import { importPart, GATE_STEPS, type GateStep } from './steps.ts';
import { keysByTier, refuseLiveKeys, type GateTarget } from './target.ts';

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
    expect(files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort()).toEqual(['index.html', 'junit.xml', 'summary.json']);
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

  it('a part whose module is missing, that throws, or that returns a malformed result fails, saying so', async () => {
    const steps: GateStep[] = [
      { name: 'missing', part: 'conformance', title: 'M', needs: [], run: async () => importPart(['conformance/does-not-exist.ts'], 'runNothing').then(() => part('conformance', 'passed')) },
      { name: 'throws', part: 'load', title: 'T', needs: [], run: async () => { throw new Error('k6 exited 107'); } },
      { name: 'malformed', part: 'chaos', title: 'X', needs: [], run: async () => ({ part: 'chaos', status: 'great' }) as unknown as PartResult },
    ];
    const cap = capture();
    const { summary } = await runGate({ target: target(), profile: defaultProfile, reportDir: dir, steps, progress: new Progress(cap.out, createRedactor(), false), runId: 'gate-broken' });
    expect(summary.parts.map((p) => p.status)).toEqual(['failed', 'failed', 'failed']);
    expect(summary.parts[0].checks[0].message).toBe('part not available: runNothing() not found in conformance/does-not-exist.ts (absent)');
    expect(summary.parts[1].checks[0].message).toMatch(/^the part threw: Error: k6 exited 107/);
    expect(summary.parts[2].checks[0].message).toMatch(/outside contract\/results.ts: .*status/);
    expect(summary.verdict).toBe('failed');
  });

  it('shows a step\'s wall time when the part timed less of it', async () => {
    const steps: GateStep[] = [{ name: 'slow', part: 'chaos', title: 'S', needs: [], run: async () => (await new Promise((r) => setTimeout(r, 120)), part('chaos', 'passed')) }];
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

  it('registers the four parts after the contract step, in the issue\'s order', () => {
    expect(GATE_STEPS.map((s) => s.name)).toEqual(['contract', 'conformance', 'load', 'chaos', 'certify']);
    expect(GATE_STEPS.find((s) => s.name === 'load')!.needs).toContain('tier-keys');
    expect(GATE_STEPS.find((s) => s.name === 'chaos')!.needs).toContain('sandbox-controls');
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

  it('the command refuses a live key before touching the target, and exits non-zero', () => {
    const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
    const r = spawnSync(process.execPath, [bin, 'gate', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'ck_live_zzzz9999', '--report-dir', dir], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/refusing a ck_live_ \(production\) key/);
    expect(r.stderr + r.stdout).not.toContain('ck_live_zzzz9999');
  });

  it('the command against an external target without controls runs the contract step and exits by the verdict', () => {
    const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
    const r = spawnSync(process.execPath, [bin, 'gate', '--base-url', 'http://127.0.0.1:9/v1', '--only', 'contract,chaos', '--report-dir', dir], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stdout).toMatch(/PASS \[1\/2\] contract/);
    expect(r.stdout).toMatch(/SKIP \[2\/2\] chaos .*no API key given.*no sandbox controls/);
    expect(r.stdout).toMatch(/^verdict: PASS/m);
    expect(r.status).toBe(0);
    const runs = readdirSync(dir).filter((d) => /^\d{8}T\d{6}Z-/.test(d));
    expect(runs.length).toBeGreaterThanOrEqual(1);
  });
});
