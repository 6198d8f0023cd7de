import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../testing/run-bin.ts';
import { descendants } from './interrupt.ts';

// Ctrl-C on the gate, as a terminal sends it: the gate is interrupted while conformance runs
// (Vitest's workers up) and the load and chaos steps run alongside. It must say what was done,
// write the partial report, exit 3 (INCOMPLETE), and leave no process of its group behind.

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Live pids whose process group is `pgid` (Linux /proc; the test is skipped elsewhere). A zombie,
 *  dead and waiting for init to reap it, is no process left running. */
function inGroup(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

const hasProc = (() => {
  try {
    return readdirSync('/proc').includes('self');
  } catch {
    return false;
  }
})();

describe('Ctrl-C on the gate', () => {
  it('descendants() finds a child of this process', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    await new Promise((r) => setTimeout(r, 100));
    expect(descendants()).toContain(child.pid);
    child.kill('SIGKILL');
  });

  it.skipIf(!hasProc)('exits 3 with a partial report and no process left', async () => {
    const reportDir = join(dir, 'reports');
    // Its own process group, as a shell gives a foreground job: the group is what a Ctrl-C reaches.
    const gate = spawn(process.execPath, [BIN, 'gate', '--plain', '--report-dir', reportDir], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    gate.stdout.on('data', (d: Buffer) => (out += d.toString()));
    gate.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((done) => gate.on('exit', (code) => done(code)));
    // Interrupted a few seconds into conformance: Vitest's workers are up by then.
    const deadline = Date.now() + 90_000;
    while (!out.includes('conformance: conformance suite') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(out).toContain('conformance: conformance suite');
    // Until a Vitest worker of conformance is up beside the gate, then a moment more.
    const vitestWorker = () => inGroup(gate.pid!).some((p) => cmdline(p).includes('vitest'));
    while (!vitestWorker() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(vitestWorker(), 'a Vitest worker in the gate\'s group').toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    process.kill(gate.pid!, 'SIGINT');
    const code = await exited;
    expect(code, out).toBe(3);
    expect(out).toMatch(/interrupted \(SIGINT\): done: contract passed; not finished: conformance/);
    const [run] = readdirSync(reportDir).filter((n) => !n.endsWith('.db'));
    const summary = JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8')) as { verdict: string; parts: Array<{ part: string; status: string }> };
    expect(summary.verdict).toBe('incomplete');
    expect(summary.parts.find((p) => p.part === 'conformance')?.status).toBe('incomplete');
    // Nothing of the gate's group outlives it (Vitest workers, k6).
    await new Promise((r) => setTimeout(r, 500));
    expect(inGroup(gate.pid!)).toEqual([]);
  }, 150_000);
});
