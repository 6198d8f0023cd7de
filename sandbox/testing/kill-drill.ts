import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { EVENT_TYPES } from '../../contract/index.ts';
import { spawnSandbox, type SandboxProcess } from './spawn.ts';
import type { Violation } from '../store/check.ts';
import { KEY_A } from './helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/testing/testkit.ts';
import { PARTNERS, sandboxCaller } from './kill-client.ts';
import { MixedLoad, OPS, type Op } from './kill-load.ts';
import { emptyRecorded, recordingAnswer, type Recorded } from './kill-record.ts';
import { verifyAgainstFile, type Verification } from './kill-verify.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// The sandbox-kill drill (bench issue "Drills"): a mixed load from concurrent workers over
// two partners and several users, webhooks to a receiver that fails a share of first and
// second attempts, SIGKILL mid-load, restart on the same file, drain, then count: nothing
// acknowledged lost, nothing duplicated except webhook redelivery under the same event id,
// and the ledger invariant checker clean. kill-mixed.test.ts runs one short cycle;
// bench/drills/sandbox-kill.ts runs many under heavier load. The load is kill-load.ts, what
// it records kill-record.ts, the verdict kill-verify.ts.

export { OPS, type Op } from './kill-load.ts';
export { emptyRecorded, type Recorded } from './kill-record.ts';

export interface DrillConfig {
  dbPath: string;
  /** Concurrent request loops. */
  workers: number;
  /** Kill once this many writes were acknowledged in the cycle (or at maxLoadMs). */
  killAfterAcked: number;
  maxLoadMs: number;
  /** Business seconds per real second. */
  timeScale: number;
  /** Share of events (by id) whose first two attempts the receiver answers 500. */
  failShare: number;
  drainTimeoutMs: number;
  log?: (line: string) => void;
}

export interface CycleResult {
  cycle: number;
  acked: Record<Op, number>;
  ackedWrites: number;
  rejected: number;
  /** Requests on the wire when SIGKILL was sent, and of them the order writes (lend/borrow). */
  inFlightAtKill: number;
  orderWritesCutByKill: number;
  /** At the kill, read from the file: deliveries waiting for a retry, and all pending. */
  retriesPendingAtKill: number;
  deliveriesPendingAtKill: number;
  presentUnacked: number;
  lost: number;
  duplicates: number;
  /** Outbox events in the file after the restart (cumulative, as are the three receipt counts). */
  events: number;
  receipts: number;
  /** Receipts of an event already answered 2xx (at-least-once redelivery, same id). */
  redeliveries: number;
  /** Receipts after a failed attempt. */
  retries: number;
  checkerViolations: Violation[];
  problems: string[];
  loadMs: number;
  restartMs: number;
  drainMs: number;
}


export class KillDrill {
  readonly rec = emptyRecorded();
  /** Every sandbox process started, so a caller's signal handler can kill what is left. */
  readonly children: ChildProcess[] = [];
  private rx!: Receiver;
  private sb: SandboxProcess | undefined;
  private readonly call = sandboxCaller(() => this.sb!.url);
  private readonly load = new MixedLoad(this.rec, this.call);
  private readonly receiver: ReturnType<typeof recordingAnswer>;

  constructor(readonly cfg: DrillConfig) {
    this.receiver = recordingAnswer(this.rec, cfg.failShare);
  }

  get url(): string {
    return this.sb!.url;
  }

  async start(): Promise<void> {
    this.rx = await startReceiver((r) => this.receiver.answer(r.body), { record: false });
    await this.startSandbox();
    for (const p of PARTNERS) {
      const r = await this.call(p.key, 'POST', '/webhooks', { url: this.rx.url, events: EVENT_TYPES });
      if (r.status !== 201) throw new Error(`webhook subscription: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }

  async close(): Promise<void> {
    for (const c of this.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await this.rx?.close();
  }

  /** SIGTERM the running sandbox and wait for its exit code. */
  async stop(): Promise<number | null> {
    if (!this.sb) return null;
    this.sb.child.kill('SIGTERM');
    const code = await this.sb.exited;
    this.sb = undefined;
    return code;
  }

  private startSandbox = async () => {
    this.sb = await spawnSandbox(['--port', '0', '--db', this.cfg.dbPath, '--no-rate-limits', '--time-scale', String(this.cfg.timeScale)], { track: this.children });
  };

  /** One kill/restart cycle: load, SIGKILL, snapshot the file, restart, drain, verify. */
  async cycle(n: number): Promise<CycleResult> {
    const cfg = this.cfg;
    const rec = this.rec;
    const load = await this.load.run(cfg, async () => {
      this.sb!.child.kill('SIGKILL');
      await this.sb!.exited;
    });
    for (const id of rec.bodies.keys()) rec.receivedBeforeKill.add(id);

    // What the file holds at the kill, before anything restarts.
    const snap = new Database(cfg.dbPath, { readonly: true, fileMustExist: true });
    const retriesPendingAtKill = snap.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending' AND attempts > 0").pluck().get() as number;
    const deliveriesPendingAtKill = snap.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'").pluck().get() as number;
    snap.close();

    const t1 = performance.now();
    await this.startSandbox();
    const restartMs = performance.now() - t1;
    const t2 = performance.now();
    const drained = await this.drain();
    const drainMs = performance.now() - t2;
    const v = await this.verify(rec, load.orderWritesCut);
    const problems = [...load.serverErrors.slice(0, 5), ...(drained ? [] : [`deliveries not drained within ${cfg.drainTimeoutMs} ms`]), ...v.problems];
    const receipts = this.receiver.receipts;
    const result: CycleResult = {
      cycle: n, acked: load.acked, ackedWrites: load.ackedWrites, rejected: load.rejected, inFlightAtKill: load.inFlightAtKill, orderWritesCutByKill: load.orderWritesCut,
      retriesPendingAtKill, deliveriesPendingAtKill,
      presentUnacked: v.presentUnacked, lost: v.lost, duplicates: v.duplicates, events: v.events, receipts: receipts.total,
      redeliveries: receipts.redeliveries, retries: receipts.retries, checkerViolations: v.checker, problems,
      loadMs: Math.round(load.loadMs), restartMs: Math.round(restartMs), drainMs: Math.round(drainMs),
    };
    cfg.log?.(
      `cycle ${n}: acked ${load.ackedWrites} writes (${OPS.map((o) => `${o} ${load.acked[o]}`).join(', ')}), in flight at kill ${load.inFlightAtKill}, ` +
        `retries pending ${retriesPendingAtKill}/${deliveriesPendingAtKill} pending, present-unacked ${v.presentUnacked}, lost ${v.lost}, ` +
        `duplicates ${v.duplicates}, events ${v.events}, redeliveries ${receipts.redeliveries}, checker ${v.checker.length}, problems ${problems.length}`,
    );
    return result;
  }

  /** After a restart: make pending retries due (a clock jump) and wait until the receiver has every outbox event. */
  private async drain(): Promise<boolean> {
    const deadline = performance.now() + this.cfg.drainTimeoutMs;
    for (let i = 0; performance.now() < deadline; i++) {
      // Retries wait 1 and 5 business minutes: jump past them rather than wait them out.
      if (i % 5 === 0) await this.call(KEY_A, 'POST', '/sandbox/clock/advance', { seconds: 600 });
      const db = new Database(this.cfg.dbPath, { readonly: true });
      const ids = db.prepare('SELECT id FROM outbox_events').pluck().all() as string[];
      const open = db.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'").pluck().get() as number;
      db.close();
      if (open === 0 && ids.every((id) => this.rec.delivered.has(id))) return true;
      await sleep(100);
    }
    return false;
  }

  /** Holds the file and the API to what was recorded; `orderWritesCut` bounds orders present but never acknowledged. */
  verify(rec: Recorded, orderWritesCut: number, opts: { api?: boolean } = {}): Promise<Verification> {
    return verifyAgainstFile(this.cfg.dbPath, this.call, rec, orderWritesCut, opts);
  }
}
