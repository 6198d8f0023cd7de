import { defaultProfile, WEBHOOK_MAX_RETRIES, WEBHOOK_RESPONSE_DEADLINE_MS, WEBHOOK_RETRY_DELAYS_MS, type Profile } from '../contract/index.ts';
import type { results } from '../contract/index.ts';
import type { AttemptRow, SessionRow } from './store.ts';

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
}

const CHECKS: Array<{ id: string; title: string; requirements: string[] }> = [
  { id: 'schedule.deliveries-recorded', title: 'the sender delivered events to the receiver', requirements: ['HOOK-post'] },
  { id: 'schedule.envelope', title: 'every delivery is an envelope with an id and a type', requirements: ['HOOK-envelope'] },
  { id: 'schedule.delays', title: 'retries follow 1 min, 5 min, 30 min, 2 h, 24 h divided by the time scale', requirements: ['HOOK-retry-schedule'] },
  { id: 'schedule.retries-made', title: 'a failed delivery is retried when its retry is due', requirements: ['HOOK-retry-count', 'HOOK-retry-schedule'] },
  { id: 'schedule.retry-count', title: 'no more than five retries', requirements: ['HOOK-retry-count'] },
  { id: 'schedule.no-attempt-after-success', title: 'no attempt follows an acknowledged one', requirements: ['HOOK-retry-count'] },
  { id: 'schedule.same-id-and-body', title: 'every attempt carries the same event id and body', requirements: ['HOOK-idempotent'] },
  { id: 'schedule.signature', title: 'every attempt carries a valid signature', requirements: ['HOOK-signature-header', 'HOOK-verify-raw'] },
  { id: 'schedule.duplicates', title: 'duplicate deliveries are reported (allowed by the spec)', requirements: ['HOOK-idempotent'] },
  { id: 'schedule.after-final-retry', title: 'what the sender did after the fifth retry is reported (not shown by the spec)', requirements: ['HOOK-retry-count'] },
];

const ms = (n: number) => `${Math.round(n)} ms`;

export function validateAttempts(rows: AttemptRow[], sessions: SessionRow[], opts: ValidateOptions = {}): PartResult {
  const started = Date.now();
  const profile = opts.profile ?? defaultProfile;
  const tol = opts.tolerance ?? DEFAULT_TOLERANCE;
  const last = sessions.at(-1);
  const timeScale = opts.timeScale ?? last?.timeScale ?? 1;
  const from = opts.from ?? (profile.webhooks.retryDelayFrom === 'attempt-start' ? 'arrival' : 'end');
  const lastArrival = rows.reduce((m, r) => Math.max(m, r.endedMs ?? r.arrivalMs), 0);
  const untilMs = Math.max(opts.untilMs ?? last?.endedMs ?? Date.now(), lastArrival);
  const delays = WEBHOOK_RETRY_DELAYS_MS.map((d) => d / timeScale);
  const noiseMs = opts.allowMeasuredNoise ? Math.max(0, ...sessions.map((s) => s.loopDelayMaxMs ?? 0)) : 0;
  const floorMs = Math.max(tol.minMs, Math.ceil(noiseMs));
  const allowance = (expected: number) => Math.max((expected * tol.pct) / 100, floorMs);
  const isSuccessStatus = (s: number | null) => s !== null && (profile.webhooks.successStatuses === '200' ? s === 200 : s >= 200 && s < 300);
  // An acknowledgement after the deadline is a failure the sender must retry (part 6, rule 1).
  const acknowledged = (a: AttemptRow) => isSuccessStatus(a.status) && a.endedMs !== null && a.endedMs - a.arrivalMs <= WEBHOOK_RESPONSE_DEADLINE_MS;
  const refOf = (a: AttemptRow) => (from === 'end' ? (a.endedMs ?? a.arrivalMs) : a.arrivalMs);

  const failures = new Map<string, string[]>(CHECKS.map((c) => [c.id, []]));
  const notes = new Map<string, string[]>(CHECKS.map((c) => [c.id, []]));
  const fail = (check: string, msg: string) => failures.get(check)!.push(msg);
  const note = (check: string, msg: string) => notes.get(check)!.push(msg);

  const byId = new Map<string, AttemptRow[]>();
  for (const r of rows) {
    if (!r.eventId || !r.eventType) {
      fail('schedule.envelope', `delivery #${r.seq}: expected a JSON envelope with id and type / received ${r.bodyBytes} bytes without them`);
      continue;
    }
    const list = byId.get(r.eventId) ?? [];
    list.push(r);
    byId.set(r.eventId, list);
  }
  if (rows.length === 0) fail('schedule.deliveries-recorded', 'expected at least one delivery / received none');

  const timeline: TimelineEvent[] = [];
  let pending = 0;
  let exhausted = 0;
  for (const [id, list] of byId) {
    list.sort((a, b) => a.arrivalMs - b.arrivalMs || a.seq - b.seq);
    const before = [...failures.values()].reduce((n, l) => n + l.length, 0);
    const t0 = list[0].arrivalMs;
    const expected: number[] = [0];
    const tag = `event ${id} (${list[0].eventType})`;

    if (new Set(list.map((a) => a.bodySha256)).size > 1) fail('schedule.same-id-and-body', `${tag}: expected the same body on every attempt / received ${new Set(list.map((a) => a.bodySha256)).size} different bodies`);
    if (new Set(list.map((a) => a.eventType)).size > 1) fail('schedule.same-id-and-body', `${tag}: expected one event type / received ${[...new Set(list.map((a) => a.eventType))].join(', ')}`);
    for (const a of list) if (!a.sigOk) fail('schedule.signature', `${tag} attempt ${a.attempt}: expected a valid signature / received ${a.sigReason}`);
    if (list.length - 1 > WEBHOOK_MAX_RETRIES) fail('schedule.retry-count', `${tag}: expected at most ${WEBHOOK_MAX_RETRIES} retries / received ${list.length - 1}`);

    const okAt = list.findIndex(acknowledged);
    if (okAt >= 0 && okAt < list.length - 1) {
      const extra = list.slice(okAt + 1);
      const overlapping = extra.filter((a) => a.arrivalMs < (list[okAt].endedMs ?? list[okAt].arrivalMs));
      if (overlapping.length) note('schedule.duplicates', `${tag}: ${overlapping.length} attempt(s) arrived while attempt ${okAt + 1} was still being answered`);
      const later = extra.length - overlapping.length;
      if (later > 0) fail('schedule.no-attempt-after-success', `${tag}: expected no attempt after attempt ${okAt + 1} was acknowledged at +${ms(list[okAt].endedMs! - t0)} / received ${later} more, first at +${ms(extra[overlapping.length].arrivalMs - t0)}`);
    }

    const scheduled = Math.min(okAt >= 0 ? okAt + 1 : list.length, WEBHOOK_MAX_RETRIES + 1);
    for (let k = 1; k < scheduled; k++) {
      const want = refOf(list[k - 1]) - t0 + delays[k - 1];
      expected.push(want);
      const got = list[k].arrivalMs - refOf(list[k - 1]);
      const diff = got - delays[k - 1];
      if (Math.abs(diff) > allowance(delays[k - 1]))
        fail('schedule.delays', `${tag} retry ${k}: expected a delay of ${ms(delays[k - 1])} ± ${ms(allowance(delays[k - 1]))} / received ${ms(got)}`);
    }
    if (okAt < 0 && list.length <= WEBHOOK_MAX_RETRIES) {
      const k = list.length; // the retry that should come next
      const due = refOf(list[k - 1]) + delays[k - 1];
      expected.push(due - t0);
      if (untilMs > due + allowance(delays[k - 1])) fail('schedule.retries-made', `${tag}: expected retry ${k} at +${ms(due - t0)} / received none by +${ms(untilMs - t0)}`);
      else {
        pending++;
        note('schedule.retries-made', `${tag}: observation ended before retry ${k} was due (+${ms(due - t0)}); not judged`);
      }
    }
    if ((okAt < 0 && list.length >= WEBHOOK_MAX_RETRIES + 1) || okAt >= WEBHOOK_MAX_RETRIES) {
      exhausted++;
      const fifth = list[WEBHOOK_MAX_RETRIES];
      const after = list.slice(WEBHOOK_MAX_RETRIES + 1);
      if (okAt >= 0 && okAt <= WEBHOOK_MAX_RETRIES) note('schedule.after-final-retry', `${tag}: acknowledged on the fifth retry`);
      else if (after.length === 0) note('schedule.after-final-retry', `${tag}: no attempt after the failed fifth retry in ${ms(untilMs - (fifth.endedMs ?? fifth.arrivalMs))} of further observation`);
      else note('schedule.after-final-retry', `${tag}: ${after.length} attempt(s) after the failed fifth retry, at ${after.map((a) => `+${ms(a.arrivalMs - t0)}`).join(', ')}`);
    }

    const failedHere = [...failures.values()].reduce((n, l) => n + l.length, 0) - before;
    timeline.push({
      eventId: id,
      type: list[0].eventType!,
      expectedMs: expected.map(Math.round),
      observedMs: list.map((a) => Math.round(a.arrivalMs - t0)),
      verdict: failedHere ? 'failed' : 'passed',
      message: failedHere ? undefined : okAt >= 0 ? `acknowledged on attempt ${okAt + 1}` : `${list.length} failed attempt(s)`,
    });
  }

  // The same type and data under two ids: a retry that changed its id, or a second emission.
  const byContent = new Map<string, string[]>();
  for (const [id, list] of byId) if (list[0].contentKey) byContent.set(list[0].contentKey, [...(byContent.get(list[0].contentKey) ?? []), id]);
  let duplicates = 0;
  for (const ids of byContent.values()) {
    if (ids.length < 2) continue;
    ids.sort((a, b) => byId.get(a)![0].arrivalMs - byId.get(b)![0].arrivalMs);
    for (let i = 1; i < ids.length; i++) {
      const prev = byId.get(ids[i - 1])!;
      const next = byId.get(ids[i])!;
      if (!prev.some(acknowledged)) {
        fail('schedule.same-id-and-body', `event ${ids[i - 1]} (${prev[0].eventType}): expected its retry to keep id ${ids[i - 1]} / received the same type and data under id ${ids[i]} ${ms(next[0].arrivalMs - (prev.at(-1)!.endedMs ?? prev.at(-1)!.arrivalMs))} after the failed attempt`);
        const tl = timeline.find((t) => t.eventId === ids[i - 1]);
        if (tl) tl.verdict = 'failed';
      } else {
        duplicates++;
        note('schedule.duplicates', `events ${ids[i - 1]} and ${ids[i]} carry the same ${prev[0].eventType} data (a second emission after an acknowledgement)`);
      }
    }
  }
  for (const list of byId.values()) for (let k = 1; k < list.length; k++) if (list[k].arrivalMs < (list[k - 1].endedMs ?? Infinity) && list[k - 1].endedMs !== null) duplicates++;

  const checks: CheckResult[] = CHECKS.map((c) => {
    const f = failures.get(c.id)!;
    const n = notes.get(c.id)!;
    return {
      id: c.id,
      title: c.title,
      requirements: c.requirements,
      status: f.length ? 'failed' : 'passed',
      durationMs: 0,
      message: f.length ? f.slice(0, 20).join('\n') + (f.length > 20 ? `\n… and ${f.length - 20} more` : '') : undefined,
      notes: n.slice(0, 50),
    };
  });
  const failedEvents = timeline.filter((t) => t.verdict === 'failed').length;
  return {
    part: 'chaos',
    name: 'webhook retry schedule',
    status: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed',
    profile: profile.name,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    checks,
    timeline,
    figures: {
      deliveries: rows.length,
      events: byId.size,
      eventsFailed: failedEvents,
      eventsPending: pending,
      eventsExhausted: exhausted,
      duplicates,
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
