import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_TYPES, WEBHOOK_SECRET_PREFIX } from '../../contract/index.ts';
import { caller, KEY_A } from '../../sandbox/test-helpers.ts';
import type { PlanInput } from '../plan.ts';
import { AttemptStore } from '../store.ts';
import { EMBEDDED_TOLERANCE } from '../schedule.ts';
import { validateAttempts } from '../validate.ts';
import { reconcile, type Reconciliation, type SenderEvent } from './restart-reconcile.ts';

// Receiver-restart drill: a real sender (the sandbox's dispatcher) delivers a continuous stream
// of triggered events to a receiver running as its own process on a fixed port with a file
// DB; mid-run the receiver is stopped (SIGKILL or SIGTERM) while the stream goes on, then
// started again on the same port and DB after a gap. When everything has drained, the
// sender's attempt log is set beside the receiver's rows (restart-reconcile.ts).

const ENTRY = fileURLToPath(new URL('./receiver-process.ts', import.meta.url));

export type StopSignal = 'SIGKILL' | 'SIGTERM';

export interface DrillOptions {
  /** The sender: a sandbox base URL ending in /v1, webhooks on, clock at `timeScale`. */
  baseUrl: string;
  apiKey?: string;
  timeScale: number;
  /** Directory for the receiver's DB. */
  dir: string;
  /** How the receiver is stopped each time; one restart per entry. */
  stops: StopSignal[];
  /** Real ms of stream before the first stop, between restarts and after the last. */
  intervalMs: number;
  /** Real ms the receiver stays down (from its exit to the release of the next process). */
  gapMs: number;
  /** Triggered events per second, sent without waiting for one another. */
  ratePerSec: number;
  /**
   * Warm: the next receiver process is loaded beforehand and released after the gap, so the
   * outage is the gap. Cold: it is spawned after the gap and the outage adds its start-up.
   */
  warm: boolean;
  /**
   * The receiver holds every event's first attempt this long before answering 200, so a stop
   * finds exchanges in flight (their rows committed, their answers not sent) and their retries
   * land in the next session. 0 or absent: answer at once.
   */
  holdFirstMs?: number;
  /** Run the deliberately broken receiver (acknowledges before committing) instead. */
  lossy?: boolean;
  drainTimeoutMs?: number;
  /** Children are pushed here as they start, so a caller's finally can kill them. */
  track?: ChildProcess[];
  log?: (line: string) => void;
}

export interface RestartRecord {
  signal: StopSignal;
  /** Real ms the receiver could not be reached: stop sent → new process listening. */
  downMs: number;
  /** Events whose trigger returned while the receiver was down. */
  emittedWhileDown: number;
  /** The stopped process exited within the wait (a SIGTERM stop that hangs is a finding). */
  exitedCleanly: boolean;
}

export interface DrillResult {
  reconciliation: Reconciliation;
  restarts: RestartRecord[];
  sessions: number;
  sessionsClosed: number;
  /** Events with rows in more than one receiver session. */
  eventsAcrossSessions: number;
  triggerErrors: number;
  streamMs: number;
  drainMs: number;
  validator: {
    status: string;
    failedChecks: Record<string, number>;
    failedEvents: string[];
    /** Failed events the outages do not explain (not in reconciliation.outageTouched): must be none. */
    unexplained: string[];
    figures: Record<string, unknown>;
  };
  dbPath: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function writePlan(dir: string, holdMs: number): string {
  const file = join(dir, `hold-first-${holdMs}ms.json`);
  const plan: PlanInput = { name: `drill: hold attempt 1 for ${holdMs} ms`, rules: [{ attempts: [1], fault: 'slow-headers', config: { delayMs: holdMs, status: 200 } }] };
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

interface ReceiverChild {
  child: ChildProcess;
  exited: Promise<void>;
  /** Resolves once the process printed `line` (or rejects when it exits first). */
  waitFor(line: RegExp, timeoutMs?: number): Promise<void>;
}

function spawnReceiver(o: DrillOptions, db: string, port: number, secret: string, standby: boolean): ReceiverChild {
  const plan = o.holdFirstMs ? [`--plan=${writePlan(o.dir, o.holdFirstMs)}`] : [];
  const args = [ENTRY, db, String(port), String(o.timeScale), ...plan, ...(standby ? ['--standby'] : []), ...(o.lossy ? ['--lossy'] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, LENDCHECK_WEBHOOK_SECRET: secret }, stdio: ['pipe', 'pipe', 'pipe'] });
  o.track?.push(child);
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => o.log?.(`receiver: ${String(d).trim()}`));
  return {
    child,
    exited,
    waitFor: (line, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`receiver did not print ${line} within ${timeoutMs} ms: ${out}`)), timeoutMs);
        const look = () => line.test(out) && (clearTimeout(t), child.stdout!.off('data', look), resolve());
        child.stdout!.on('data', look);
        look();
        void exited.then(() => (clearTimeout(t), reject(new Error(`receiver exited before printing ${line}: ${out}`))));
      }),
  };
}

/** Sends triggers at a fixed rate until stopped; records when each event was emitted. */
function startStream(call: ReturnType<typeof caller>, key: string, ratePerSec: number) {
  const emitted: Array<{ eventId: string; atMs: number }> = [];
  const pending = new Set<Promise<void>>();
  let errors = 0;
  let n = 0;
  const fire = () => {
    const type = EVENT_TYPES[n++ % EVENT_TYPES.length];
    const p = call('POST', '/sandbox/trigger', { key, body: { type, userId: `drill_${n}` } })
      .then((r) => (r.status === 200 ? void emitted.push({ eventId: r.body.eventId, atMs: Date.now() }) : void errors++))
      .catch(() => void errors++)
      .finally(() => pending.delete(p));
    pending.add(p);
  };
  const timer = setInterval(fire, 1000 / ratePerSec);
  return {
    emitted,
    errors: () => errors,
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    },
  };
}

/** Runs `fn` over items with at most `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (i < items.length) await fn(items[i++]);
  }));
}

export async function runRestartDrill(o: DrillOptions): Promise<DrillResult> {
  const log = o.log ?? (() => {});
  const key = o.apiKey ?? KEY_A;
  const call = caller(o.baseUrl);
  const db = join(o.dir, `receiver-${o.lossy ? 'lossy' : 'real'}-${Date.now()}.db`);
  const port = await freePort();

  const sub = await call('POST', '/webhooks', { key, body: { url: `http://127.0.0.1:${port}/hook`, events: [...EVENT_TYPES] } });
  if (sub.status !== 201 || !String(sub.body.secret).startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error(`subscribe: ${sub.status} ${JSON.stringify(sub.body)}`);
  const webhookId = sub.body.webhookId as string;
  const secret = sub.body.secret as string;

  let current = spawnReceiver(o, db, port, secret, false);
  await current.waitFor(/receiving on/);
  let next = o.warm && o.stops.length ? spawnReceiver(o, db, port, secret, true) : undefined;
  if (next) await next.waitFor(/standby/);
  log(`receiver on port ${port}, db ${db}${o.lossy ? ' (LOSSY variant)' : ''}`);

  const t0 = Date.now();
  const stream = startStream(call, key, o.ratePerSec);
  const restarts: RestartRecord[] = [];
  for (const [i, signal] of o.stops.entries()) {
    await sleep(o.intervalMs);
    const stopAt = Date.now();
    current.child.kill(signal);
    const exitedCleanly = await Promise.race([current.exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!exitedCleanly) {
      current.child.kill('SIGKILL');
      await current.exited;
    }
    await sleep(o.gapMs);
    if (next) {
      current = next;
      current.child.stdin!.write('start\n');
    } else current = spawnReceiver(o, db, port, secret, false);
    await current.waitFor(/receiving on/);
    const upAt = Date.now();
    const emittedWhileDown = stream.emitted.filter((e) => e.atMs >= stopAt && e.atMs <= upAt).length;
    restarts.push({ signal, downMs: upAt - stopAt, emittedWhileDown, exitedCleanly });
    log(`restart ${i + 1}: ${signal}, down ${upAt - stopAt} ms, ${emittedWhileDown} events emitted meanwhile${exitedCleanly ? '' : ', STOP HUNG (killed)'}`);
    next = o.warm && i + 1 < o.stops.length ? spawnReceiver(o, db, port, secret, true) : undefined;
    if (next) await next.waitFor(/standby/);
  }
  await sleep(o.intervalMs);
  await stream.stop();
  const streamMs = Date.now() - t0;
  log(`stream stopped: ${stream.emitted.length} events in ${streamMs} ms, ${stream.errors()} trigger errors`);

  // Drain: poll the sender until every event has a final state.
  const drainStart = Date.now();
  const final = new Map<string, SenderEvent>();
  const readEvent = async (id: string, keepPending = false) => {
    const r = await call('GET', `/sandbox/events/${id}/attempts`, { key });
    if (r.status !== 200) throw new Error(`attempts of ${id}: ${r.status}`);
    const attempts = (r.body.attempts as Array<{ attempt: number; webhookId: string; sentAt?: string; status: number | null; outcome: string; error?: string }>)
      .filter((a) => a.webhookId === webhookId && a.outcome !== 'pending')
      .map((a) => ({ attempt: a.attempt, sentAtMs: Date.parse(a.sentAt!), status: a.status, ...(a.error ? { error: a.error } : {}) }));
    if (keepPending || r.body.state !== 'pending') final.set(id, { eventId: id, state: r.body.state, attempts });
  };
  const ids = stream.emitted.map((e) => e.eventId);
  const deadline = drainStart + (o.drainTimeoutMs ?? 60_000);
  for (;;) {
    await pool(ids.filter((id) => !final.has(id)), 8, (id) => readEvent(id));
    if (final.size === ids.length || Date.now() > deadline) break;
    await sleep(200);
  }
  const drainMs = Date.now() - drainStart;
  // Final states do not change; what is still pending at the deadline is kept as it stands.
  await pool(ids.filter((id) => !final.has(id)), 8, (id) => readEvent(id, true));
  log(`drained in ${drainMs} ms (${ids.filter((id) => final.get(id)!.state === 'pending').length} still pending)`);

  current.child.kill('SIGTERM');
  await Promise.race([current.exited, sleep(15_000).then(() => current.child.kill('SIGKILL'))]);
  await current.exited;
  await call('DELETE', `/webhooks/${webhookId}`, { key });

  const store = new AttemptStore(db);
  try {
    const rows = store.attempts();
    const sessions = store.sessions();
    const reconciliation = reconcile([...final.values()], rows, o.timeScale);
    const sessionsOf = new Map<string, Set<number>>();
    for (const r of rows) if (r.eventId) sessionsOf.set(r.eventId, (sessionsOf.get(r.eventId) ?? new Set()).add(r.session));
    // The sender runs beside this drill, not inside the receiver: the embedded tolerance (1 s
    // floor) is the one for a sandbox sharing a loaded 2-core box.
    const v = validateAttempts(rows, sessions, { tolerance: EMBEDDED_TOLERANCE });
    const failedEvents = (v.timeline ?? []).filter((t) => t.verdict === 'failed').map((t) => t.eventId);
    const failedChecks = Object.fromEntries(v.checks.filter((c) => c.status === 'failed').map((c) => [c.id, (c.message ?? '').split('\n').length]));
    return {
      reconciliation,
      restarts,
      sessions: sessions.length,
      sessionsClosed: sessions.filter((s) => s.endedMs !== null).length,
      eventsAcrossSessions: [...sessionsOf.values()].filter((s) => s.size > 1).length,
      triggerErrors: stream.errors(),
      streamMs,
      drainMs,
      validator: { status: v.status, failedChecks, failedEvents, unexplained: failedEvents.filter((id) => !reconciliation.outageTouched.has(id)), figures: v.figures ?? {} },
      dbPath: db,
    };
  } finally {
    store.close();
  }
}

/** The figures a report needs, without sets and id lists. */
export function drillFigures(r: DrillResult) {
  const x = r.reconciliation;
  return {
    events: x.events,
    attemptsSent: x.senderAttempts,
    answered: x.answered,
    unanswered: x.unanswered,
    refused: x.refused,
    cutMidExchange: x.cut,
    retries: x.retries,
    rows: x.rows,
    lost: x.lost,
    invented: x.invented,
    orphanRows: x.orphanRows,
    notDelivered: x.notDelivered.length,
    notObserved: x.notObserved.length,
    numberingBroken: x.numberingBroken.length,
    bodyChanged: x.bodyChanged.length,
    retriesEarly: x.retriesEarly,
    retryLateP99Ms: Math.round(x.retryLateP99Ms),
    retryLateMaxMs: Math.round(x.retryLateMaxMs),
    retryLateWorst: x.retryLateWorst,
    outageGaps: x.outageGaps,
    outageGapDeviationMaxMs: Math.round(x.outageGapDeviationMaxMs),
    restarts: r.restarts,
    sessions: r.sessions,
    sessionsClosed: r.sessionsClosed,
    eventsAcrossSessions: r.eventsAcrossSessions,
    triggerErrors: r.triggerErrors,
    streamMs: r.streamMs,
    drainMs: r.drainMs,
    validator: { status: r.validator.status, failedChecks: r.validator.failedChecks, failedEvents: r.validator.failedEvents.length, unexplained: r.validator.unexplained.length },
  };
}
