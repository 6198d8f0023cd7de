import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { k6Binary } from '../k6-process.ts';
import { runLoad } from '../run.ts';
import { acksOf } from './audit.ts';

// The audit after load, proven on the real k6 (one smoke mixed run each, side by side): the
// clean sandbox passes it; a sandbox that never debits withdrawals, refunds a cancel twice, or
// lets two overlapping cancels both refund (the cancel-race fault), fails the run though every
// write was answered as a correct service would, naming the user and the money.

const k6 = (() => {
  try {
    return k6Binary();
  } catch (e) {
    return { error: (e as Error).message };
  }
})();
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'lendcheck-audit-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('ledger acks', () => {
  it('reads who did what from the samples, the run key when no pool key is named', () => {
    const acks = acksOf([
      { t: 0, value: 1, tags: { op: 'lend', user: 'u1', asset: 'USDC', amount: '100', position: 'p1' } },
      { t: 0, value: 1, tags: { op: 'withdraw', user: 'u2', asset: 'USDC', amount: '1', pool_key: '3' } },
    ]);
    expect(acks).toEqual([
      { op: 'lend', user: 'u1', asset: 'USDC', amount: '100', position: 'p1', keyIndex: 0 },
      { op: 'withdraw', user: 'u2', asset: 'USDC', amount: '1', keyIndex: 3 },
    ]);
  });
});

describe.skipIf('error' in k6)('audit after a mixed load run (k6)', () => {
  it('passes the clean sandbox and fails a sandbox whose money does not add up, though every answer was 2xx', { timeout: 180_000 }, async () => {
    const noSpeed = { P95_MS: '60000', P99_MS: '60000' };
    const run = (faults?: Array<{ name: string; config?: Record<string, unknown> }>) => runLoad({ scenario: 'mixed', smoke: true, reportDir: tmp(), env: noSpeed, ...(faults ? { sandbox: { faults } } : {}) });
    const [clean, notDebited, doubleRefund, cancelRace] = await Promise.all([run(), run([{ name: 'withdraw-not-debited' }]), run([{ name: 'cancel-double-refund' }]), run([{ name: 'cancel-race', config: { gapMs: 250 } }])]);
    const audit = (r: typeof clean) => r.checks.find((c) => c.id === 'load.mixed.audit:ledger')!;

    expect(audit(clean).status, audit(clean).message).toBe('passed');
    expect(clean.status).toBe('passed');
    expect(Number(clean.figures.auditUsers)).toBeGreaterThan(3);
    expect(Number(clean.figures.auditConserved)).toBeGreaterThan(2);
    expect(clean.figures.auditViolations).toBe(0);

    for (const [r, what] of [
      [notDebited, /mix-withdrawer-.*: USDC expected .* \(.*1 withdrawals\) \/ received .* \(1 more: money appeared\)/],
      [doubleRefund, /mix-canceller-.*: USDC expected .* \/ received .* \(100 more: money appeared\)/],
      // A race: two cancels of one order at once, both refunded. The fault's window is 250 ms here:
      // k6's two parallel requests landed within 30 ms only 2 runs in 4 on a busy machine (load
      // average 16 on 2 cores), within the default 5 ms less often; the storm checks own that proof.
      [cancelRace, /mix-canceller-.*: USDC expected .* \/ received .* \(100 more: money appeared\)/],
    ] as const) {
      // Every write was answered 2xx: only the audit fails the run.
      expect(r.checks.filter((c) => c.status === 'failed').map((c) => c.id), `${String(what)}: ${audit(r).notes.join('; ')}; figures ${JSON.stringify(r.figures).slice(0, 400)}`).toEqual(['load.mixed.audit:ledger']);
      expect(r.status).toBe('failed');
      expect(audit(r).message).toMatch(what);
      expect(Number(r.figures.auditViolations)).toBeGreaterThan(0);
    }
    // The audit is in the run's report files too.
    expect(JSON.parse(readFileSync(join(dirs[1]!, 'result.json'), 'utf8')).checks.some((c: { id: string; status: string }) => c.id === 'load.mixed.audit:ledger' && c.status === 'failed')).toBe(true);
  });
});
