import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { KillDrill, type CycleResult } from '../../sandbox/testing/kill-drill.ts';
import { killChildrenOnSignal } from '../../sandbox/testing/signal-cleanup.ts';

// The long sandbox-kill drill: N kill/restart cycles on one database file under a heavier
// mixed load than sandbox/kill-mixed.test.ts (same drill module). Each cycle SIGKILLs the
// sandbox mid-load with webhook retries pending, restarts it, drains, and verifies every
// acknowledged write, every event, the API balances and the ledger invariant checker.
// Exit 1 when any cycle found a problem. Usage:
//   node --import tsx bench/drills/sandbox-kill.ts [--cycles 10] [--workers 16] [--kill-after 1500] [--json FILE]

const arg = (n: string, d: string) => {
  const i = process.argv.indexOf(`--${n}`);
  return i > 0 ? process.argv[i + 1]! : d;
};
const cycles = Number(arg('cycles', '10'));
const jsonOut = arg('json', '');
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-sandbox-kill-'));
const drill = new KillDrill({
  dbPath: join(dir, 'sandbox.db'),
  workers: Number(arg('workers', '16')),
  killAfterAcked: Number(arg('kill-after', '1500')),
  maxLoadMs: 30_000,
  timeScale: 60,
  failShare: 0.3,
  drainTimeoutMs: 120_000,
  log: (l) => console.log(l),
});
killChildrenOnSignal(drill.children, () => rmSync(dir, { recursive: true, force: true }));

const results: CycleResult[] = [];
try {
  await drill.start();
  for (let c = 1; c <= cycles; c++) {
    try {
      results.push(await drill.cycle(c));
    } catch (e) {
      // A cycle that cannot finish (e.g. the sandbox does not come back) is a failure of the drill, reported, not a crash.
      console.log(`cycle ${c} failed: ${(e as Error).message}`);
      break;
    }
  }
  const exit = await drill.stop();
  if (exit !== 0) console.log(`final SIGTERM exit code ${exit}`);
} finally {
  await drill.close();
  rmSync(dir, { recursive: true, force: true });
}

const sum = (f: (r: CycleResult) => number) => results.reduce((a, r) => a + f(r), 0);
const totals = {
  cycles: results.length,
  ackedWrites: sum((r) => r.ackedWrites),
  inFlightAtKill: sum((r) => r.inFlightAtKill),
  orderWritesCutByKill: sum((r) => r.orderWritesCutByKill),
  retriesPendingAtKill: sum((r) => r.retriesPendingAtKill),
  presentUnacked: sum((r) => r.presentUnacked),
  lost: sum((r) => r.lost),
  duplicates: sum((r) => r.duplicates),
  eventsInOutbox: results.at(-1)?.events ?? 0,
  receipts: results.at(-1)?.receipts ?? 0,
  redeliveries: results.at(-1)?.redeliveries ?? 0,
  retries: results.at(-1)?.retries ?? 0,
  checkerViolations: sum((r) => r.checkerViolations.length),
  problems: sum((r) => r.problems.length),
  medianRestartMs: [...results.map((r) => r.restartMs)].sort((a, b) => a - b)[Math.floor(results.length / 2)] ?? 0,
  maxDrainMs: Math.max(0, ...results.map((r) => r.drainMs)),
};
console.table(results.map((r) => ({
  cycle: r.cycle, acked: r.ackedWrites, inFlight: r.inFlightAtKill, cutOrders: r.orderWritesCutByKill, presentUnacked: r.presentUnacked, lost: r.lost,
  dups: r.duplicates, retriesPending: r.retriesPendingAtKill, events: r.events, redeliveries: r.redeliveries, checker: r.checkerViolations.length,
  problems: r.problems.length, restartMs: r.restartMs, drainMs: r.drainMs,
})));
console.log('totals', JSON.stringify(totals));
for (const r of results) for (const p of r.problems) console.log(`cycle ${r.cycle}: ${p}`);
if (jsonOut) {
  mkdirSync(dirname(jsonOut), { recursive: true });
  writeFileSync(jsonOut, JSON.stringify({ at: new Date().toISOString(), totals, cycles: results }, null, 2));
}
process.exitCode = totals.problems === 0 && results.length === cycles ? 0 : 1;
