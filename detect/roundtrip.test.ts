import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../contract/index.ts';

// Issue 33, item 3: the round trip a user runs, through the CLI as they run it
// (/work/shared/tools/as-a-user.sh): the sandbox with rate limits on, no controls, two
// partners' Growth keys; `profile detect` -> file -> `conformance --profile file`. The file
// must load and conformance must reach a verdict (exit 0 or 1), never stop at 2 ("invalid
// profile"). Each example profile runs with a registration answer that echoes the secret given
// (webhooks.registrationSecret "always": the examples require a secret, so the sandbox would
// otherwise never show one), one as it is (no echo), and the default profile, whose answer
// shows the secret the sandbox generated. The conformance leg runs a few checks only (the
// endpoint checks, which read the recorded registration shape, and the webhook ones), so the
// file stays bounded; the full suite on detected profiles is the matrix's (matrix.test.ts).

const execFileP = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'cli/bin.js');
const KEYS = [
  { key: 'ck_test_roundtrip_a_growth', partnerId: 'partner_a', tier: 'growth' },
  { key: 'ck_test_roundtrip_b_growth', partnerId: 'partner_b', tier: 'growth' },
];
const ONLY = 'endpoint.*,hooks.delivery,errors.invalid.webhooks';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill();
});

const cli = (args: string[], timeout: number) =>
  execFileP(process.execPath, [BIN, ...args], { cwd: ROOT, timeout, maxBuffer: 16 << 20 }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );

async function startSandbox(dir: string, port: number, profileFile?: string): Promise<string> {
  writeFileSync(join(dir, 'keys.json'), JSON.stringify(KEYS));
  const args = ['sandbox', '--port', String(port), '--db', join(dir, 'sb.db'), '--keys', join(dir, 'keys.json'), '--no-controls', '--no-console', ...(profileFile ? ['--profile', profileFile] : [])];
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: 'ignore' });
  children.push(child);
  const base = `http://127.0.0.1:${port}/v1`;
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`the sandbox exited with ${child.exitCode}`);
    if (await fetch(`${base}/markets`).then((r) => r.ok, () => false)) return base;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the sandbox did not answer on port ${port} within 30 s`);
}

function profileFileFor(dir: string, name: string, registrationSecret?: string): string | undefined {
  if (name === 'default') return undefined;
  const p = JSON.parse(readFileSync(join(ROOT, `examples/profiles/${name}.json`), 'utf8')) as { webhooks: Record<string, unknown> };
  if (registrationSecret) p.webhooks.registrationSecret = registrationSecret;
  const file = join(dir, 'played.json');
  writeFileSync(file, JSON.stringify(p));
  return file;
}

const CELLS: Array<{ name: string; registrationSecret?: 'always'; shown: boolean }> = [
  { name: 'default', shown: true },
  { name: 'fintech-rest', registrationSecret: 'always', shown: true },
  { name: 'strict-gateway', registrationSecret: 'always', shown: true },
  { name: 'minimal-sandbox', registrationSecret: 'always', shown: true },
  { name: 'minimal-sandbox', shown: false },
];

describe('profile detect -> file -> conformance --profile file, through the CLI', () => {
  CELLS.forEach(({ name, registrationSecret, shown }, i) => {
    it.concurrent(`${name}${registrationSecret ? `, registration echoes the secret given` : ''}: the file loads and conformance gives a verdict`, { timeout: 180_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lc-roundtrip-'));
      const base = await startSandbox(dir, 5120 + i, profileFileFor(dir, name, registrationSecret));
      const keys = ['--api-key', KEYS[0]!.key, '--api-key-2', KEYS[1]!.key];
      const out = join(dir, 'detected.json');
      const detect = await cli(['profile', 'detect', '--base-url', base, ...keys, '--out', out], 120_000);
      expect(detect.code, detect.out).toBe(0);
      const text = readFileSync(out, 'utf8');
      // Values masked, names and types kept: the registration's `secret` field is recorded as a string.
      expect(text).not.toMatch(/whsec_[A-Za-z0-9+/]/);
      expect(text).not.toContain('roundtrip_a_growth');
      expect(text).not.toContain('roundtrip_b_growth');
      const loaded = loadProfile(out);
      expect(loaded.responses['POST /webhooks']?.fields.secret).toBe(shown ? 'string' : undefined);
      const conf = await cli(['conformance', '--base-url', base, ...keys, '--profile', out, '--report-dir', join(dir, 'r'), '--only', ONLY], 120_000);
      expect(conf.out).not.toMatch(/invalid profile/);
      expect([0, 1], conf.out.slice(-2000)).toContain(conf.code);
      const report = JSON.parse(readFileSync(join(dir, 'r', 'conformance.json'), 'utf8')) as { checks: Array<{ id: string; status: string; message?: string }> };
      expect(report.checks.length).toBeGreaterThan(5);
      // The sandbox plays the profile correctly, so the verdict is a pass.
      expect(report.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    });
  });

  it('stops at once, naming the address and the error, and writes nothing, when nothing answers', { timeout: 30_000 }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'lc-roundtrip-')), 'detected.json');
    const t0 = performance.now();
    const r = await cli(['profile', 'detect', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', KEYS[0]!.key, '--out', out], 25_000);
    // The preflight (cli/preflight/): one line, exit 2 (an input error), before any probe.
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/the target does not answer: http:\/\/127\.0\.0\.1:1.*ECONNREFUSED/);
    expect(existsSync(out)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(20_000);
  });
});
