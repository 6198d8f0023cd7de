import { AttemptStore } from '../store.ts';
import { EMBEDDED_TOLERANCE } from '../schedule/run.ts';
import { validateAttempts } from '../validate/validate.ts';
import { reconcile, type Reconciliation, type SenderEvent } from './restart-reconcile.ts';

// What the restart drill reports: the receiver's file DB read back once everything drained,
// reconciled against the sender's log and judged by the validator, and the figures of it.

export type StopSignal = 'SIGKILL' | 'SIGTERM';

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

type RunFigures = Pick<DrillResult, 'restarts' | 'triggerErrors' | 'streamMs' | 'drainMs'>;

/** Reads the receiver's DB at `dbPath` (its processes all stopped) and sets it beside the sender's `final` log. */
export async function judgeReceiverDb(dbPath: string, final: SenderEvent[], timeScale: number, run: RunFigures): Promise<DrillResult> {
  const store = new AttemptStore(dbPath);
  try {
    const rows = store.attempts();
    const sessions = store.sessions();
    const reconciliation = reconcile(final, rows, timeScale);
    const sessionsOf = new Map<string, Set<number>>();
    for (const r of rows) if (r.eventId) sessionsOf.set(r.eventId, (sessionsOf.get(r.eventId) ?? new Set()).add(r.session));
    // The sender runs beside this drill, not inside the receiver: the embedded tolerance (1 s
    // floor) is the one for a sandbox sharing a loaded 2-core box.
    const v = await validateAttempts(rows, sessions, { tolerance: EMBEDDED_TOLERANCE });
    const failedEvents = (v.timeline ?? []).filter((t) => t.verdict === 'failed').map((t) => t.eventId);
    const failedChecks = Object.fromEntries(v.checks.filter((c) => c.status === 'failed').map((c) => [c.id, (c.message ?? '').split('\n').length]));
    return {
      reconciliation,
      restarts: run.restarts,
      sessions: sessions.length,
      sessionsClosed: sessions.filter((s) => s.endedMs !== null).length,
      eventsAcrossSessions: [...sessionsOf.values()].filter((s) => s.size > 1).length,
      triggerErrors: run.triggerErrors,
      streamMs: run.streamMs,
      drainMs: run.drainMs,
      validator: { status: v.status, failedChecks, failedEvents, unexplained: failedEvents.filter((id) => !reconciliation.outageTouched.has(id)), figures: v.figures ?? {} },
      dbPath,
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
