import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KillDrill, OPS, type CycleResult } from '../testing/kill-drill.ts';

// The combined sandbox-kill drill, one short cycle (bench/drills/sandbox-kill.ts runs many):
// SIGKILL `lendcheck sandbox` in the middle of a mixed load from 8 workers over two partners
// (lend, borrow, cancel, repay, withdraw, fund, PATCH, reads, clock jumps) with webhook
// retries pending, restart it on the same file, drain, and hold the file and the API to
// everything the clients and the receiver saw.

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-kill-mixed-'));
const drill = new KillDrill({
  dbPath: join(dir, 'sandbox.db'),
  workers: 8,
  killAfterAcked: 500,
  maxLoadMs: 12_000,
  timeScale: 60,
  failShare: 0.3,
  drainTimeoutMs: 20_000,
});
afterAll(async () => {
  await drill.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sandbox kill during a mixed load with deliveries pending', () => {
  let r: CycleResult;

  it('loses nothing acknowledged, duplicates nothing but redeliveries under the same id, and leaves a clean ledger', async () => {
    await drill.start();
    r = await drill.cycle(1);
    expect(r.problems).toEqual([]);
    expect(r.lost).toBe(0);
    expect(r.duplicates).toBe(0);
    expect(r.checkerViolations).toEqual([]);
    expect(r.presentUnacked).toBeLessThanOrEqual(r.orderWritesCutByKill);
    // Not vacuous: the kill cut requests on the wire, retries were waiting, every kind of
    // operation went through, and events flowed.
    expect(r.inFlightAtKill, 'requests in flight at the kill').toBeGreaterThanOrEqual(3);
    expect(r.retriesPendingAtKill, 'retries pending at the kill').toBeGreaterThan(0);
    for (const op of OPS) expect(r.acked[op], `${op} acknowledged`).toBeGreaterThanOrEqual(1);
    expect(r.events).toBeGreaterThan(100);
    expect(r.retries).toBeGreaterThan(0);
    expect(await drill.stop(), 'clean exit on SIGTERM').toBe(0);
  }, 90_000);

  it('verify() catches a lost order, a lost withdrawal, a changed event body and an unexplained order (the checks can fail)', async () => {
    if (!r) throw new Error('the drill cycle did not run');
    const rec = drill.rec;
    const tampered = {
      ...rec,
      orders: new Map([...rec.orders, ['pos_never_written', { partnerId: 'partner_a', userId: 'kd-u1', type: 'lend' as const, asset: 'USDC', amount: '1', maturityMs: 0 }]]),
      withdrawals: new Map([...rec.withdrawals, ['wd_never_written', { partnerId: 'partner_a', userId: 'kd-u1', asset: 'USDC', amount: '1' }]]),
      bodies: new Map([...rec.bodies].map(([id, b], i) => [id, i === 0 ? new Set([...b, '{"other":true}']) : b])),
      // Forget the acknowledgements of two orders: they look unexplained, beyond a bound of 0 cut writes.
      knownUnacked: new Set<string>(),
    };
    const two = [...rec.orders.keys()].slice(0, 2);
    for (const id of two) tampered.orders.delete(id);
    const v = await drill.verify(tampered, 0, { api: false });
    const text = v.problems.join('\n');
    expect(text).toMatch(/acknowledged lend pos_never_written: missing/);
    expect(text).toMatch(/acknowledged withdrawal wd_never_written: missing/);
    expect(text).toMatch(/arrived with 2 different bodies/);
    expect(text).toMatch(/orders present but never acknowledged, only 0 order writes were cut/);
    expect(v.lost).toBe(2);
  });
});
