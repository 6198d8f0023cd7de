import { WEBHOOK_MAX_RETRIES, type Profile } from '../../contract/index.ts';
import { CheckRegistry, failed, failure, pass, skip, type Check, type Failure, type Outcome } from '../../kernel/check-kernel.ts';
import type { AttemptRow } from '../store.ts';
import { selfCommand } from '../../kernel/self-command.ts';

// The retry schedule and idempotency rules of part 6, one named check per rule, on the one
// check kernel. Each rule reads the recording through the context below; the per-event
// rules also say which events they fault, so the timeline marks the same events failed.

export interface ScheduleEvent {
  id: string;
  type: string;
  /** Attempts in arrival order. */
  attempts: AttemptRow[];
  /** Arrival of the first attempt (epoch ms). */
  t0: number;
  tag: string;
  /** Index of the first acknowledged attempt, or -1. */
  okAt: number;
}

export interface ValidateContext {
  profile: Profile;
  rows: AttemptRow[];
  /** Deliveries that were not an envelope with an id and a type. */
  malformed: AttemptRow[];
  events: ScheduleEvent[];
  /** The scaled retry delays (ms). */
  delays: number[];
  /** End of observation (epoch ms). */
  untilMs: number;
  allowance(expectedMs: number): number;
  acknowledged(a: AttemptRow): boolean;
  /** Where a retry delay is measured from: the attempt's end or its arrival. */
  refOf(a: AttemptRow): number;
}

export const ms = (n: number): string => `${Math.round(n)} ms`;

/** The retry an event still awaits, when its schedule has one left. */
export function nextRetry(ctx: ValidateContext, e: ScheduleEvent): { k: number; dueMs: number } | undefined {
  if (e.okAt >= 0 || e.attempts.length > WEBHOOK_MAX_RETRIES) return undefined;
  const k = e.attempts.length;
  return { k, dueMs: ctx.refOf(e.attempts[k - 1]) + ctx.delays[k - 1] };
}

/** An event whose next retry was not yet due (with its allowance) when observation ended: not judged. */
export function pendingRetry(ctx: ValidateContext, e: ScheduleEvent): { k: number; dueMs: number } | undefined {
  const next = nextRetry(ctx, e);
  return next && ctx.untilMs <= next.dueMs + ctx.allowance(ctx.delays[next.k - 1]) ? next : undefined;
}

/**
 * The instant after which an event's schedule is observed to its end, so that watching longer
 * cannot change what these rules say about it: the retry its last attempt leads to (owed after a
 * failure; a fault after an acknowledgement) was due, plus that delay's allowance; after a fifth
 * retry, the allowance of the whole schedule, so an attempt beyond the fifth is seen. Undefined
 * while an attempt is still being answered: its end decides when the next retry is due.
 */
export function observedEndMs(ctx: ValidateContext, e: ScheduleEvent): number | undefined {
  if (e.attempts.some((a) => a.endedMs === null)) return undefined;
  const last = e.attempts.at(-1)!;
  const k = e.attempts.length;
  if (k <= WEBHOOK_MAX_RETRIES) return ctx.refOf(last) + ctx.delays[k - 1] + ctx.allowance(ctx.delays[k - 1]);
  return last.endedMs! + ctx.allowance(ctx.delays.reduce((a, b) => a + b, 0));
}

/** Attempts after the acknowledged one that arrived while it was still being answered (allowed duplicates). */
function overlappingAfterAck(e: ScheduleEvent): AttemptRow[] {
  if (e.okAt < 0) return [];
  const ack = e.attempts[e.okAt];
  return e.attempts.slice(e.okAt + 1).filter((a) => a.arrivalMs < (ack.endedMs ?? ack.arrivalMs));
}

/** Pairs of events with the same type and data under two ids, in arrival order. */
export function sameContentPairs(ctx: ValidateContext): Array<[ScheduleEvent, ScheduleEvent]> {
  const byContent = new Map<string, ScheduleEvent[]>();
  for (const e of ctx.events) {
    const key = e.attempts[0].contentKey;
    if (key) byContent.set(key, [...(byContent.get(key) ?? []), e]);
  }
  const pairs: Array<[ScheduleEvent, ScheduleEvent]> = [];
  for (const list of byContent.values()) {
    list.sort((a, b) => a.t0 - b.t0);
    for (let i = 1; i < list.length; i++) pairs.push([list[i - 1], list[i]]);
  }
  return pairs;
}

/** A rule judged event by event: its failures name the event, so the timeline can mark it. */
export interface EventRule {
  id: string;
  title: string;
  requirements: string[];
  failures(ctx: ValidateContext, e: ScheduleEvent): Failure[];
}

const outcome = (fs: Failure[], notes: string[] = []): Outcome => (fs.length ? { ...failed(fs[0], ...fs.slice(1)), notes } : pass({ notes }));

export const EVENT_RULES: EventRule[] = [
  {
    id: 'schedule.delays',
    title: 'retries follow 1 min, 5 min, 30 min, 2 h, 24 h divided by the time scale',
    requirements: ['HOOK-retry-schedule'],
    failures(ctx, e) {
      const out: Failure[] = [];
      const judged = Math.min(e.okAt >= 0 ? e.okAt + 1 : e.attempts.length, WEBHOOK_MAX_RETRIES + 1);
      for (let k = 1; k < judged; k++) {
        const want = ctx.delays[k - 1];
        const got = e.attempts[k].arrivalMs - ctx.refOf(e.attempts[k - 1]);
        if (Math.abs(got - want) > ctx.allowance(want)) out.push(failure(`${e.tag} retry ${k}`, `a delay of ${ms(want)} ± ${ms(ctx.allowance(want))}`, ms(got)));
      }
      return out;
    },
  },
  {
    id: 'schedule.retries-made',
    title: 'a failed delivery is retried when its retry is due',
    requirements: ['HOOK-retry-count', 'HOOK-retry-schedule'],
    failures(ctx, e) {
      const next = nextRetry(ctx, e);
      if (!next || pendingRetry(ctx, e)) return [];
      // Matched by type and data too, not by id alone: a retry under a new id is named as such.
      const renamed = sameContentPairs(ctx).find(([prev]) => prev === e)?.[1];
      if (renamed) return [failure(e.tag, `retry ${next.k} at +${ms(next.dueMs - e.t0)} with id ${e.id}`, `the same type and data under a new event id ${renamed.id} at +${ms(renamed.t0 - e.t0)} (a changed id, not a missing retry)`)];
      return [failure(e.tag, `retry ${next.k} at +${ms(next.dueMs - e.t0)}`, `none by +${ms(ctx.untilMs - e.t0)}`)];
    },
  },
  {
    id: 'schedule.retry-count',
    title: 'no more than five retries',
    requirements: ['HOOK-retry-count'],
    failures: (_ctx, e) => (e.attempts.length - 1 > WEBHOOK_MAX_RETRIES ? [failure(e.tag, `at most ${WEBHOOK_MAX_RETRIES} retries`, String(e.attempts.length - 1))] : []),
  },
  {
    id: 'schedule.no-attempt-after-success',
    title: 'no attempt follows an acknowledged one',
    requirements: ['HOOK-retry-count'],
    failures(_ctx, e) {
      if (e.okAt < 0) return [];
      const extra = e.attempts.slice(e.okAt + 1);
      const overlapping = overlappingAfterAck(e).length;
      const later = extra.length - overlapping;
      if (later <= 0) return [];
      const ack = e.attempts[e.okAt];
      return [failure(e.tag, `no attempt after attempt ${e.okAt + 1} was acknowledged at +${ms((ack.endedMs ?? ack.arrivalMs) - e.t0)}`, `${later} more, first at +${ms(extra[overlapping].arrivalMs - e.t0)}`)];
    },
  },
  {
    id: 'schedule.same-id-and-body',
    title: 'every attempt carries the same event id and body',
    requirements: ['HOOK-idempotent'],
    failures(ctx, e) {
      const out: Failure[] = [];
      const bodies = new Set(e.attempts.map((a) => a.bodySha256)).size;
      if (bodies > 1) out.push(failure(e.tag, 'the same body on every attempt', `${bodies} different bodies`));
      const types = [...new Set(e.attempts.map((a) => a.eventType))];
      if (types.length > 1) out.push(failure(e.tag, 'one event type', types.join(', ')));
      // A retry that changed its id: the same type and data under another id after a failed attempt.
      for (const [prev, next] of sameContentPairs(ctx)) {
        if (prev !== e || prev.attempts.some((a) => ctx.acknowledged(a))) continue;
        const last = prev.attempts.at(-1)!;
        out.push(failure(prev.tag, `its retry to keep id ${prev.id}`, `the same type and data under id ${next.id} ${ms(next.t0 - (last.endedMs ?? last.arrivalMs))} after the failed attempt`));
      }
      return out;
    },
  },
  {
    id: 'schedule.signature',
    title: 'every attempt carries a valid signature',
    requirements: ['HOOK-signature-header', 'HOOK-verify-raw'],
    failures: (_ctx, e) => e.attempts.filter((a) => !a.sigOk).map((a) => failure(`${e.tag} attempt ${a.attempt}`, 'a valid signature', a.sigReason ?? 'an invalid one')),
  },
];

const eventCheck = (rule: EventRule): Check<ValidateContext> => ({
  id: rule.id,
  title: rule.title,
  requirements: rule.requirements,
  async run(ctx) {
    const fs = ctx.events.flatMap((e) => rule.failures(ctx, e));
    if (rule.id === 'schedule.delays' && !fs.length) return delaysSeen(ctx);
    if (rule.id !== 'schedule.retries-made' || fs.length) return outcome(fs);
    // Not observed to its end is not passed: the retries still due are named, with their instant.
    const pending = ctx.events.map((e) => [e, pendingRetry(ctx, e)] as const).filter(([, p]) => p);
    if (!pending.length) return pass();
    const notes = pending.map(([e, p]) => `${e.tag}: observation ended before retry ${p!.k} was due at ${new Date(p!.dueMs).toISOString()} (+${ms(p!.dueMs - e.t0)}); not judged`);
    const [e0, p0] = pending[0];
    return skip(`observation ended before the schedule did: ${pending.length} event(s) still awaited a retry; the first, ${e0.tag} retry ${p0!.k}, was due at ${new Date(p0!.dueMs).toISOString()}`, notes);
  },
});

/**
 * schedule.delays with no delay wrong: the delays observed beside the expected ones, and, when
 * some retries were never reached in the observation, a skip naming them: a retry that was not
 * observed is never reported as following its delay.
 */
function delaysSeen(ctx: ValidateContext): Outcome {
  const seen = new Map<number, number[]>();
  for (const e of ctx.events) {
    const judged = Math.min(e.okAt >= 0 ? e.okAt + 1 : e.attempts.length, WEBHOOK_MAX_RETRIES + 1);
    for (let k = 1; k < judged; k++) seen.set(k, [...(seen.get(k) ?? []), e.attempts[k].arrivalMs - ctx.refOf(e.attempts[k - 1])]);
  }
  const notes = [...seen].sort(([a], [b]) => a - b).map(([k, got]) => `retry ${k}: expected ${ms(ctx.delays[k - 1])}, observed ${got.map(ms).join(', ')}`);
  const unseen = Array.from({ length: WEBHOOK_MAX_RETRIES }, (_, i) => i + 1).filter((k) => !seen.has(k));
  const pending = ctx.events.some((e) => pendingRetry(ctx, e));
  if (!seen.size) return skip('no retry was observed, so no delay could be judged', notes);
  if (pending && unseen.length) return skip(`retries ${unseen.join(', ')} were not observed in this run (observation ended first): only retries ${[...seen.keys()].join(', ')} were judged, all within the tolerance; observe the rest with \`${selfCommand()} chaos receive\` + \`${selfCommand()} chaos validate\` over a day`, notes);
  return pass({ notes });
}

export const VALIDATE_CHECKS = new CheckRegistry<Check<ValidateContext>>([
  {
    id: 'schedule.deliveries-recorded',
    title: 'the sender delivered events to the receiver',
    requirements: ['HOOK-post'],
    run: async (ctx) => outcome(ctx.rows.length ? [] : [failure('the recording', 'at least one delivery', 'none')]),
  },
  {
    id: 'schedule.envelope',
    title: 'every delivery is an envelope with an id and a type',
    requirements: ['HOOK-envelope'],
    run: async (ctx) => outcome(ctx.malformed.map((r) => failure(`delivery #${r.seq}`, 'a JSON envelope with id and type', `${r.bodyBytes} bytes without them`))),
  },
  ...EVENT_RULES.map(eventCheck),
  {
    id: 'schedule.duplicates',
    title: 'duplicate deliveries are reported (allowed by the spec)',
    requirements: ['HOOK-idempotent'],
    async run(ctx) {
      const notes: string[] = [];
      for (const e of ctx.events) {
        const n = overlappingAfterAck(e).length;
        if (n) notes.push(`${e.tag}: ${n} attempt(s) arrived while attempt ${e.okAt + 1} was still being answered`);
      }
      for (const [prev, next] of sameContentPairs(ctx)) {
        if (prev.attempts.some((a) => ctx.acknowledged(a))) notes.push(`events ${prev.id} and ${next.id} carry the same ${prev.type} data (a second emission after an acknowledgement)`);
      }
      return pass({ notes: notes.slice(0, 50) });
    },
  },
  {
    id: 'schedule.after-final-retry',
    title: 'what the sender did after the fifth retry is reported (not shown by the spec)',
    requirements: ['HOOK-retry-count'],
    async run(ctx) {
      const notes: string[] = [];
      for (const e of ctx.events.filter(exhausted)) {
        const fifth = e.attempts[WEBHOOK_MAX_RETRIES];
        const after = e.attempts.slice(WEBHOOK_MAX_RETRIES + 1);
        if (e.okAt >= 0 && e.okAt <= WEBHOOK_MAX_RETRIES) notes.push(`${e.tag}: acknowledged on the fifth retry`);
        else if (after.length === 0) notes.push(`${e.tag}: no attempt after the failed fifth retry in ${ms(ctx.untilMs - (fifth.endedMs ?? fifth.arrivalMs))} of further observation`);
        else notes.push(`${e.tag}: ${after.length} attempt(s) after the failed fifth retry, at ${after.map((a) => `+${ms(a.arrivalMs - e.t0)}`).join(', ')}`);
      }
      return pass({ notes: notes.slice(0, 50) });
    },
  },
]);

/** An event whose whole schedule ran: five retries made, or acknowledged on the last. */
export function exhausted(e: ScheduleEvent): boolean {
  return (e.okAt < 0 && e.attempts.length >= WEBHOOK_MAX_RETRIES + 1) || e.okAt >= WEBHOOK_MAX_RETRIES;
}
