import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { drillFigures, runRestartDrill, type StopSignal } from '../../chaos/testing/restart-drill.ts';
import { spawnSandbox } from '../../sandbox/testing/spawn.ts';
import { killChildrenOnSignal } from '../../sandbox/testing/signal-cleanup.ts';

// Long receiver-restart drill (the short one is chaos/restart.test.ts): the sandbox as its own
// process delivers a heavier stream of events to the chaos receiver (its own process, fixed
// port, file DB), which is stopped and restarted several times mid-run, alternately with
// SIGKILL and SIGTERM, cold by default (the outage includes the receiver's real start-up).
// Exits 1 when any observation was lost or invented, an event was not delivered and observed,
// numbering or bodies broke, or the validator failed an event no outage explains. Retry
// lateness is reported, not judged: at this rate the sender itself falls behind during outages.
//   node --import tsx bench/drills/receiver-restart.ts --restarts 5 [--rate 300] [--interval-seconds 8]
//     [--gap-ms 1000] [--time-scale 3600] [--hold-ms 10] [--warm] [--json out.json]

const { values: a } = parseArgs({
  options: {
    restarts: { type: 'string', default: '5' },
    rate: { type: 'string', default: '300' },
    'interval-seconds': { type: 'string', default: '8' },
    'gap-ms': { type: 'string', default: '1000' },
    'time-scale': { type: 'string', default: '3600' },
    'hold-ms': { type: 'string', default: '10' },
    warm: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const restarts = Number(a.restarts);
const timeScale = Number(a['time-scale']);
const stops: StopSignal[] = Array.from({ length: restarts }, (_, i) => (i % 2 === 0 ? 'SIGKILL' : 'SIGTERM'));

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-receiver-restart-'));
const children: ChildProcess[] = [];
killChildrenOnSignal(children, () => rmSync(dir, { recursive: true, force: true }));
let exitCode = 1;
try {
  const sandbox = await spawnSandbox(['--port', '0', '--db', join(dir, 'sandbox.db'), '--time-scale', String(timeScale), '--no-liquidity', '--no-rate-limits'], { track: children });
  const t0 = performance.now();
  const r = await runRestartDrill({
    baseUrl: sandbox.url,
    timeScale,
    dir,
    stops,
    intervalMs: Number(a['interval-seconds']) * 1000,
    gapMs: Number(a['gap-ms']),
    ratePerSec: Number(a.rate),
    warm: a.warm,
    holdFirstMs: Number(a['hold-ms']),
    // The fifth retry comes 26.6 min of business time after the first attempt: at 3600, 27 s.
    drainTimeoutMs: 120_000,
    track: children,
    log: (l) => console.log(l),
  });
  const figures = { at: new Date().toISOString(), timeScale, rate: Number(a.rate), warm: a.warm, wallSeconds: Math.round((performance.now() - t0) / 1000), ...drillFigures(r) };
  console.log(JSON.stringify(figures, null, 2));
  if (r.reconciliation.examples.length) console.log(`examples:\n  ${r.reconciliation.examples.join('\n  ')}`);
  if (a.json) writeFileSync(a.json, JSON.stringify(figures, null, 2));
  const x = r.reconciliation;
  const ok = x.lost === 0 && x.invented === 0 && x.notDelivered.length === 0 && x.notObserved.length === 0 && x.numberingBroken.length === 0 && x.bodyChanged.length === 0
    && r.sessions === restarts + 1 && r.sessionsClosed === stops.filter((s) => s === 'SIGTERM').length + 1 && r.restarts.every((s) => s.exitedCleanly)
    && r.triggerErrors === 0 && x.retriesEarly === 0 && r.validator.unexplained.length === 0;
  console.log(ok ? 'receiver-restart: PASS (no observation lost or invented)' : 'receiver-restart: FAIL');
  exitCode = ok ? 0 : 1;
  sandbox.child.kill('SIGTERM');
  await sandbox.exited;
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
