import { defaultProfile, isAcknowledged, WEBHOOK_MAX_RETRIES, WEBHOOK_RETRY_DELAYS_MS, type Profile } from '../../contract/index.ts';
import { failureMessage, runCheck } from '../../kernel/check-kernel.ts';
import { EVENT_RULES, exhausted, ms, nextRetry, pendingRetry, sameContentPairs, VALIDATE_CHECKS, type ScheduleEvent, type ValidateContext } from './checks.ts';
import type * as results from '../../kernel/results.ts';
import type { AttemptRow, SessionRow } from '../store.ts';

type PartResult = results.PartResult;
type CheckResult = results.CheckResult;
type TimelineEvent = NonNullable<PartResult['timeline']>[number];

export interface Tolerance {
  /** Relative tolerance in percent of the expected delay. */
  pct: number;
  /** Absolute floor in ms; the larger of the two applies. */
  minMs: number;
}
export const DEFAULT_TOLERANCE: Tolerance = { pct: 2, minMs: 50 };

/** "2%,50ms", "5%", "100ms" → Tolerance (missing parts keep their defaults). */
export function parseTolerance(text: string): Tolerance {
  const t = { ...DEFAULT_TOLERANCE };
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+(?:\.\d+)?)\s*(%|ms|s)$/.exec(part);
    if (!m) throw new Error(`invalid --tolerance part "${part}": expected forms like 2% or 50ms`);
    const n = Number(m[1]);
    if (m[2] === '%') t.pct = n;
    else t.minMs = m[2] === 's' ? n * 1000 : n;
  }
  return t;
}

export interface ValidateOptions {
  /** Sender time scale; defaults to the one the receiver recorded in its last session. */
  timeScale?: number;
  tolerance?: Tolerance;
  profile?: Profile;
  /**
   * Where a retry delay is measured from. The spec says "retried … after these delays" without
   * saying after what; 'end' measures from when the failed attempt ended as the receiver saw it
   * (response sent, or connection dropped by either side), 'arrival' from its start. Defaults to
   * the profile's webhooks.retryDelayFrom.
   */
  from?: 'end' | 'arrival';
  /** End of the observation window (epoch ms); defaults to the last session's end or now. */
  untilMs?: number;
  /**
   * Widen the floor by the worst event-loop delay the receiver measured in its process. Right
   * when the sender shares that process (the embedded sandbox): its timers were late by as much.
   */
  allowMeasuredNoise?: boolean;
  /** With allowMeasuredNoise: the receiver's worst event-loop delay so far, while its session is still open. */
  loopDelayMs?: number;
}

/** The recording read the way every rule reads it: events grouped by id, the scaled delays, the allowance. */
export function scheduleContext(rows: AttemptRow[], sessions: SessionRow[], opts: ValidateOptions = {}): ValidateContext & { timeScale: number; tol: Tolerance; floorMs: number; from: 'end' | 'arrival' } {
  const profile = opts.profile ?? defaultProfile;
  const tol = opts.tolerance ?? DEFAULT_TOLERANCE;
  const last = sessions.at(-1);
  const timeScale = opts.timeScale ?? last?.timeScale ?? 1;
  const from = opts.from ?? (profile.webhooks.retryDelayFrom === 'attempt-start' ? 'arrival' : 'end');
  const lastArrival = rows.reduce((m, r) => Math.max(m, r.endedMs ?? r.arrivalMs), 0);
  const untilMs = Math.max(opts.untilMs ?? last?.endedMs ?? Date.now(), lastArrival);
  const noiseMs = opts.allowMeasuredNoise ? Math.max(0, opts.loopDelayMs ?? 0, ...sessions.map((s) => s.loopDelayMaxMs ?? 0)) : 0;
  const floorMs = Math.max(tol.minMs, Math.ceil(noiseMs));
  // An acknowledgement after the deadline is a failure the sender must retry (part 6, rule 1).
  const acknowledged = (a: AttemptRow) => a.endedMs !== null && isAcknowledged(profile, { status: a.status, ms: a.endedMs - a.arrivalMs });

  const byId = new Map<string, AttemptRow[]>();
  const malformed: AttemptRow[] = [];
  for (const r of rows) {
    if (!r.eventId || !r.eventType) malformed.push(r);
    else byId.set(r.eventId, [...(byId.get(r.eventId) ?? []), r]);
  }
  const events: ScheduleEvent[] = [...byId].map(([id, list]) => {
    list.sort((a, b) => a.arrivalMs - b.arrivalMs || a.seq - b.seq);
    return { id, type: list[0].eventType!, attempts: list, t0: list[0].arrivalMs, tag: `event ${id} (${list[0].eventType})`, okAt: list.findIndex(acknowledged) };
  });
  return {
    profile,
    rows,
    malformed,
    events,
    delays: WEBHOOK_RETRY_DELAYS_MS.map((d) => d / timeScale),
    untilMs,
    allowance: (expected) => Math.max((expected * tol.pct) / 100, floorMs),
    acknowledged,
    refOf: (a) => (from === 'end' ? (a.endedMs ?? a.arrivalMs) : a.arrivalMs),
    timeScale,
    tol,
    floorMs,
    from,
  };
}

/** Runs the schedule checks over a recording (kernel/check-kernel.ts: one named check per rule). */
export async function validateAttempts(rows: AttemptRow[], sessions: SessionRow[], opts: ValidateOptions = {}): Promise<PartResult> {
  const started = Date.now();
  const ctx = scheduleContext(rows, sessions, opts);
  const { profile, events, acknowledged, untilMs, timeScale, tol, floorMs, from } = ctx;

  const checks: CheckResult[] = [];
  for (const c of VALIDATE_CHECKS.list()) checks.push(await runCheck(c, ctx));
  const timeline = events.map((e) => timelineOf(ctx, e));
  // A failed check's reproduction is the attempts as the receiver saw them, of the events that broke a rule.
  const attemptsText = attemptTimeline(events.filter((_, i) => timeline[i].verdict === 'failed'), timeline.filter((t) => t.verdict === 'failed'));
  if (attemptsText) for (let i = 0; i < checks.length; i++) if (checks[i].status === 'failed' && !checks[i].reproduction) checks[i] = { ...checks[i], reproduction: { exchanges: [], omitted: 0, vars: {}, deliveries: [], timeline: attemptsText } };
  const pending = events.map((e) => pendingRetry(ctx, e)).filter((p) => p !== undefined);
  const nextDue = Math.min(...pending.map((p) => p.dueMs));
  let overlapping = 0;
  for (const e of events) for (let k = 1; k < e.attempts.length; k++) if (e.attempts[k - 1].endedMs !== null && e.attempts[k].arrivalMs < e.attempts[k - 1].endedMs!) overlapping++;
  const emittedTwice = sameContentPairs(ctx).filter(([prev]) => prev.attempts.some(acknowledged)).length;
  // The verdict follows the evidence: a schedule not observed to its end is not a pass.
  const status = checks.some((c) => c.status === 'failed') ? 'failed' : pending.length ? 'incomplete' : 'passed';
  return {
    part: 'chaos',
    name: 'webhook retry schedule',
    status,
    profile: profile.name,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    checks,
    timeline,
    figures: {
      deliveries: rows.length,
      events: events.length,
      eventsFailed: timeline.filter((t) => t.verdict === 'failed').length,
      eventsPending: pending.length,
      ...(pending.length ? { nextAttemptDueAt: new Date(nextDue).toISOString() } : {}),
      eventsExhausted: events.filter(exhausted).length,
      duplicates: overlapping + emittedTwice,
      timeScale,
      tolerancePct: tol.pct,
      toleranceMinMs: tol.minMs,
      toleranceFloorAppliedMs: floorMs,
      receiverLoopDelayMaxMs: Math.round(Math.max(0, ...sessions.map((s) => s.loopDelayMaxMs ?? 0))),
      delaysMeasuredFrom: from,
      observedForMs: Math.round(untilMs - (rows[0]?.arrivalMs ?? untilMs)),
    },
  };
}

/** The attempts of each event, one line each, against the times the schedule expected (the first 10 events). */
function attemptTimeline(events: ScheduleEvent[], lines: TimelineEvent[]): string {
  return events
    .slice(0, 10)
    .map((e, i) => {
      const t = lines[i];
      const rows = e.attempts.map((a, k) => {
        const exp = t.expectedMs[k];
        return `  ${k === 0 ? 'first  ' : `retry ${k}`} at +${ms(a.arrivalMs - e.t0)}${exp !== undefined ? ` (expected +${ms(exp)})` : ''}: answered ${a.status ?? 'nothing'}${a.endedMs !== null ? ` after ${ms(a.endedMs - a.arrivalMs)}` : ''}${a.fault ? `, fault ${a.fault}` : ''}, signature ${a.sigOk ? 'valid' : `invalid (${a.sigReason ?? 'no reason'})`}`;
      });
      for (let k = e.attempts.length; k < t.expectedMs.length; k++) rows.push(`  retry ${k} expected at +${ms(t.expectedMs[k])}: not received`);
      return [`event ${e.id} (${e.type}): ${t.message ?? t.verdict}`, ...rows].join('\n');
    })
    .join('\n');
}

function timelineOf(ctx: ValidateContext, e: ScheduleEvent): TimelineEvent {
  const judged = Math.min(e.okAt >= 0 ? e.okAt + 1 : e.attempts.length, WEBHOOK_MAX_RETRIES + 1);
  const expected = [0];
  for (let k = 1; k < judged; k++) expected.push(ctx.refOf(e.attempts[k - 1]) - e.t0 + ctx.delays[k - 1]);
  const next = nextRetry(ctx, e);
  if (next) expected.push(next.dueMs - e.t0);
  const faults = EVENT_RULES.flatMap((r) => r.failures(ctx, e));
  const pending = pendingRetry(ctx, e);
  const base = { eventId: e.id, type: e.type, expectedMs: expected.map(Math.round), observedMs: e.attempts.map((a) => Math.round(a.arrivalMs - e.t0)) };
  if (faults.length) return { ...base, verdict: 'failed', message: faults.map(failureMessage).join('\n') };
  if (pending) return { ...base, verdict: 'pending', message: `retry ${pending.k} was due at ${new Date(pending.dueMs).toISOString()} (+${ms(pending.dueMs - e.t0)}), after observation ended at +${ms(ctx.untilMs - e.t0)}` };
  return { ...base, verdict: 'passed', message: e.okAt >= 0 ? `acknowledged on attempt ${e.okAt + 1}` : `${e.attempts.length} failed attempt(s)` };
}
