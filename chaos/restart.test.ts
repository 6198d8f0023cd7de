import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS } from '../contract/index.ts';
import { defaultPlugins } from '../sandbox/plugins.ts';
import { startSandboxServer, type SandboxServer } from '../sandbox/server.ts';
import { drillFigures, runRestartDrill, type DrillOptions } from './testing/restart-drill.ts';
import { reconcile, type SenderEvent } from './testing/restart-reconcile.ts';
import type { AttemptRow } from './store.ts';

// Receiver restart in the middle of a run: no observation lost. The sender is the sandbox's
// dispatcher (in this process, clock at 7200: retries after 8 ms, 42 ms, 250 ms, 1 s, 12 s),
// the receiver its own process on a fixed port and file DB, stopped mid-stream and restarted.

const TIME_SCALE = 7200;
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-restart-'));
const children: ChildProcess[] = [];
let sandbox: SandboxServer;

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0, timeScale: TIME_SCALE, plugins: defaultPlugins({ rateLimits: false }), liquidity: { enabled: false, delaySeconds: 0 } });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const drill = (o: Partial<DrillOptions>) =>
  runRestartDrill({ baseUrl: sandbox.url, timeScale: TIME_SCALE, dir, stops: ['SIGKILL'], intervalMs: 1500, gapMs: 400, ratePerSec: 40, warm: true, track: children, drainTimeoutMs: 25_000, ...o });

describe('reconcile (sender log against receiver rows)', () => {
  const row = (attempt: number, status: number | null, seq = attempt, over: Partial<AttemptRow> = {}): AttemptRow => ({
    seq, session: 1, eventId: 'evt_1', eventType: 'position.created', attempt, arrivalMs: 1000 * attempt, endedMs: 1000 * attempt + 1,
    bodySha256: 'b', contentKey: 'c', subject: null, bodyBytes: 10, sigOk: true, sigReason: null, fault: null, response: String(status), status, ...over,
  });
  const ev = (attempts: Array<[number | null, string?]>): SenderEvent => ({
    eventId: 'evt_1', state: 'delivered',
    attempts: attempts.map(([status, error], i) => ({ attempt: i + 1, sentAtMs: i * 1e9, status, ...(error ? { error } : {}) })),
  });

  it('accepts refused attempts without rows and an orphan row for an attempt cut mid-exchange', () => {
    const r = reconcile([ev([[null, 'ECONNREFUSED: x'], [null, 'UND_ERR_SOCKET: other side closed'], [null, 'ECONNREFUSED: x'], [200]])], [row(1, 200), row(2, 200)], 1);
    expect([r.lost, r.invented, r.orphanRows, r.refused, r.cut]).toEqual([0, 0, 1, 2, 1]);
    expect(r.outageGaps).toBe(1);
  });

  it('counts an answered attempt without its row as lost, and a row no attempt explains as invented', () => {
    expect(reconcile([ev([[500], [200]])], [row(1, 200)], 1).lost).toBe(1);
    // A refused attempt never reached a receiver, so it cannot own a row.
    const inv = reconcile([ev([[null, 'ECONNREFUSED: x'], [200]])], [row(1, 200), row(2, 200)], 1);
    expect([inv.lost, inv.invented]).toEqual([0, 1]);
    expect(reconcile([ev([[200]])], [row(1, 200), row(1, 200, 2, { eventId: 'evt_other' })], 1).invented).toBe(1);
    expect(reconcile([ev([[500], [200]])], [row(1, 200), row(2, 500)], 1).lost).toBeGreaterThan(0);
  });

  it('flags broken numbering, a changed body and a retry sent before it was due', () => {
    const r = reconcile([ev([[500], [200]])], [row(1, 500), row(3, 200, 2, { bodySha256: 'other' })], 1);
    expect([r.numberingBroken.length, r.bodyChanged.length]).toEqual([1, 1]);
    const early: SenderEvent = { eventId: 'evt_1', state: 'delivered', attempts: [{ attempt: 1, sentAtMs: 0, status: 500 }, { attempt: 2, sentAtMs: WEBHOOK_RETRY_DELAYS_MS[0] - 1, status: 200 }] };
    expect(reconcile([early], [row(1, 500), row(2, 200)], 1).retriesEarly).toBe(1);
  });
});

describe('receiver restart drill', () => {
  it('loses no observation when the receiver is SIGKILLed and then SIGTERMed mid-stream and restarted', async () => {
    // Every first attempt is held 100 ms, so each stop finds exchanges in flight.
    const r = await drill({ stops: ['SIGKILL', 'SIGTERM'], intervalMs: 2000, gapMs: 500, holdFirstMs: 100 });
    const x = r.reconciliation;
    console.log('restart drill:', JSON.stringify(drillFigures(r)));
    expect(r.triggerErrors).toBe(0);
    // Not vacuous: the stream ran through both outages, and the outages made the sender retry.
    expect(x.events).toBeGreaterThan(100);
    for (const s of r.restarts) expect(s.emittedWhileDown, JSON.stringify(s)).toBeGreaterThan(0);
    expect(x.refused).toBeGreaterThan(0);
    expect(x.cut, 'exchanges in flight when the receiver stopped').toBeGreaterThan(0);
    expect(x.retries).toBeGreaterThan(0);
    expect(r.restarts.every((s) => s.exitedCleanly)).toBe(true);
    // Nothing lost, nothing invented; every event delivered and observed.
    expect(x.examples).toEqual([]);
    expect([x.lost, x.invented]).toEqual([0, 0]);
    expect(x.rows).toBeGreaterThanOrEqual(x.answered);
    expect(x.rows).toBeLessThanOrEqual(x.senderAttempts);
    expect(x.notDelivered).toEqual([]);
    expect(x.notObserved).toEqual([]);
    // Failures were retried under the same id (the sender's log is per id) with the same body, on schedule.
    expect(x.failuresNotRetried).toBe(0);
    expect(x.bodyChanged).toEqual([]);
    expect(x.retriesEarly).toBe(0);
    // Numbering 1..k per event, across the restarts; one session per process, two closed by SIGTERM.
    expect(x.numberingBroken).toEqual([]);
    expect(r.eventsAcrossSessions, 'events observed before and after a restart').toBeGreaterThan(0);
    expect(r.sessions).toBe(3);
    expect(r.sessionsClosed).toBe(2);
    // The validator judges only what reached the receiver: any complaint must be about an event
    // the outage touched (an acknowledgement that never left, attempts missing between rows).
    expect(r.validator.unexplained).toEqual([]);
    // Rows either side of an outage are as far apart as the delays of the attempts the receiver
    // never saw (1 s floor, as for the embedded sandbox on a loaded box: see EMBEDDED_TOLERANCE).
    expect(x.outageGaps).toBeGreaterThan(0);
    expect(x.outageGapDeviationMaxMs).toBeLessThan(1000);
  }, 60_000);

  it('catches a receiver that acknowledges before committing (lost observations > 0)', async () => {
    const r = await drill({ lossy: true });
    console.log('lossy receiver drill:', JSON.stringify(drillFigures(r)));
    expect(r.restarts[0].emittedWhileDown).toBeGreaterThan(0);
    expect(r.reconciliation.lost).toBeGreaterThan(0);
    expect(r.reconciliation.notObserved.length).toBeGreaterThan(0);
  }, 60_000);
});
