import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { main } from '../main.ts';
import { runBin } from '../testing/run-bin.ts';
import { CASES, type Targets } from './cases.ts';

// A user's mistakes, table-driven (cases.ts): each command that talks to a target × a wrong
// key, a dead address, a base URL without /v1, an HTML answer, a bad profile file, a bad
// option, a ck_live_ key. Each must end in ONE line and exit 2, before any check runs, in
// under 10 s. The cases run through main() in this process (spawning ~45 CLIs would cost
// 3-4 s of CPU each just to load the sources); a few spawned runs below prove the real
// process path (its stdout/stderr and exit code) end to end. One sandbox and one HTML server
// serve every case.

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

async function runMain(args: string[]): Promise<{ code: number; lines: string[]; ms: number }> {
  const lines: string[] = [];
  const capture = (...a: unknown[]) => void lines.push(...a.map(String).join(' ').split('\n'));
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(capture),
    vi.spyOn(console, 'error').mockImplementation(capture),
    vi.spyOn(console, 'warn').mockImplementation(capture),
    vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => (capture(String(c).replace(/\n$/, '')), true)),
    vi.spyOn(process, 'exit').mockImplementation((c?: string | number | null) => {
      throw new Exited(Number(c ?? 0));
    }),
  ];
  process.exitCode = undefined;
  const t0 = performance.now();
  let code: number;
  try {
    await main(['node', 'lendcheck', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    if (!(e instanceof Exited)) throw e;
    code = e.code;
  } finally {
    for (const s of spies) s.mockRestore();
    process.exitCode = undefined;
  }
  return { code, lines: lines.filter((l) => l.trim() !== ''), ms: performance.now() - t0 };
}

let sandbox: SandboxServer;
let html: Server;
let t: Targets;
const measured: Array<[string, number, string]> = [];

beforeAll(async () => {
  sandbox = await startSandboxServer({ dbPath: ':memory:' });
  html = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><body>a web page</body></html>'));
  await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
  // A port nothing listens on: taken, then given back.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const deadPort = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-mistakes-'));
  const failures = join(tmp, 'failures.json');
  writeFileSync(failures, JSON.stringify({ kind: 'lendcheck-failures', version: 1, runId: 'r1', target: sandbox.url, profile: 'default', startedAt: new Date().toISOString(), run: { baseUrl: sandbox.url }, failures: [{ part: 'conformance', id: 'errors.unknown-position', title: 'an unknown position answers 404', requirements: [] }] }));
  const origin = new URL(sandbox.url).origin;
  t = { base: sandbox.url, origin, dead: `http://127.0.0.1:${deadPort}/v1`, html: `http://127.0.0.1:${(html.address() as { port: number }).port}/v1`, failures, tmp };
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise((r) => html?.close(r));
  rmSync(t.tmp, { recursive: true, force: true });
  // The measured table, for the record (case, exit, seconds).
  console.log(measured.map(([n, c, s]) => `${n.padEnd(40)} exit ${c}  ${s} s`).join('\n'));
});

describe('a user mistake is one line and exit 2, before anything runs', () => {
  it('has at least 25 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(25));
  for (const c of CASES) {
    it(c.name, async () => {
      const r = await runMain(c.args(t));
      measured.push([c.name, r.code, (r.ms / 1000).toFixed(2)]);
      expect(r.lines, r.lines.join('\n')).toHaveLength(1);
      expect(r.lines[0]).toMatch(c.line);
      expect(r.lines[0]).not.toMatch(/ck_test_nobody_has_this_key|ck_live_not_opted_in/);
      expect(r.code).toBe(2);
      expect(r.ms).toBeLessThan(10_000);
      if (c.noFile) expect(existsSync(c.noFile(t))).toBe(false);
    });
  }
});

describe.concurrent('the same, as a spawned process', () => {
  const spawned: Array<[string, (x: Targets) => string[], RegExp]> = [
    ['conformance: wrong key', (x) => ['conformance', '--base-url', x.base, '--api-key', 'ck_test_nobody_has_this_key'], /^lendcheck: --api-key: the target refused this key/],
    ['profile detect: wrong key', (x) => ['profile', 'detect', '--base-url', x.base, '--api-key', 'ck_test_nobody_has_this_key', '--out', join(x.tmp, 'spawned.json')], /^lendcheck: --api-key: the target refused this key/],
  ];
  for (const [name, args, line] of spawned) {
    it(name, async () => {
      const r = await runBin(args(t), { timeoutMs: 150_000 });
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(line);
      expect(r.status).toBe(2);
      if (name.startsWith('profile detect')) expect(existsSync(join(t.tmp, 'spawned.json'))).toBe(false);
      // Not timed here: a spawned CLI pays 3-4 s of CPU loading the sources, more on a busy box.
    }, 160_000);
  }
});
