import type * as results from '../../kernel/results.ts';
import type { Tolerance } from '../validate/validate.ts';

// The retry watch's verdicts, from what arrived so far (pure, so each rule is tested alone).
// One event is watched: its first delivery and its retries are the arrivals about the same
// subject (the position it concerns), matched by body and order, not by event id alone, so a
// retry under a new id is named as such. Judged as soon as each rule is certain: a missing
// retry fails once its window has passed, not at the end of the run; a delivery whose
// signature does not verify ends the watch at once, with the verifier's reason.

type CheckResult = results.CheckResult;

export interface Seen {
  at: number;
  end: number;
  raw: string;
  eventId?: string;
  sigOk: boolean;
  sigReason?: string;
  status: number;
}

export interface Expect {
  /** ms the watch began waiting for the first delivery (the order was answered). */
  causedAt: number;
  /** Retries watched: 1..5; the last one watched is answered 2xx. */
  retries: number;
  /** ms of the 1st..5th retry delays. */
  delaysMs: readonly number[];
  tolerance: Tolerance;
  /** Delays run from the failed attempt's end (its answer) or its start (profile webhooks.retryDelayFrom). */
  from: 'attempt-end' | 'attempt-start';
  /** How long the first delivery may take: then its absence is certain. */
  firstMs: number;
  /** After the 2xx: how long nothing more must come before the watch ends. */
  quietMs: number;
  /** The command that observes the retries this run does not, for the report. */
  laterCommand: string;
  /** What the watched event is about, for the messages. */
  subject: string;
}

export interface Judgement {
  done: boolean;
  checks: CheckResult[];
  /** Observed beside expected delay, one line per retry seen. */
  delays: Array<{ retry: number; expectedMs: number; observedMs: number }>;
}

export const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const human = (ms: number) => (ms >= 3_600_000 ? `${ms / 3_600_000} h` : ms >= 60_000 ? `${ms / 60_000} min` : s(ms));

export function result(id: string, title: string, requirements: string[], failure?: string, notes: string[] = []): CheckResult {
  return { id, title, requirements, status: failure ? 'failed' : 'passed', durationMs: 0, ...(failure ? { message: failure } : {}), notes };
}

function notObserved(e: Expect, from: number): CheckResult[] {
  const out: CheckResult[] = [];
  for (let i = from; i <= 5; i++) {
    out.push({
      id: `retries.retry-${i}`,
      title: `retry ${i} follows after ${human(e.delaysMs[i - 1] ?? 0)}`,
      requirements: ['HOOK-retry-schedule', 'HOOK-retry-count'],
      status: 'skipped',
      durationMs: 0,
      message: `not observed in this run (due ${human(e.delaysMs[i - 1] ?? 0)} after retry ${i - 1}); observe it with ${e.laterCommand}`,
      notes: [],
    });
  }
  return out;
}

/**
 * `final`: the watch is ending now (another of its rules failed): what is still pending is
 * reported not observed, never judged either way.
 */
export function judge(arrivals: readonly Seen[], e: Expect, now: number, final = false): Judgement {
  const checks: CheckResult[] = [];
  const delays: Judgement['delays'] = [];
  const stop = (): Judgement => ({ done: true, checks: [...checks, ...notObserved(e, checks.filter((c) => c.id.startsWith('retries.retry-')).length + 1)], delays });
  const wait = (): Judgement => (final ? stop() : { done: false, checks, delays });
  const first = arrivals[0];
  const firstTitle = `the first delivery of ${e.subject} arrives and verifies over its raw bytes`;
  if (!first) {
    if (now - e.causedAt <= e.firstMs) {
      if (final) checks.push({ ...result('retries.first-delivery', firstTitle, ['HOOK-post']), status: 'skipped', message: `not observed: the watch ended after ${s(now - e.causedAt)}, before a first delivery` });
      return wait();
    }
    checks.push(result('retries.first-delivery', firstTitle, ['HOOK-post'], `expected a delivery within ${s(e.firstMs)} of the order / received none`));
    return stop();
  }
  if (!first.sigOk) {
    checks.push(result('retries.first-delivery', firstTitle, ['HOOK-verify-raw'], `expected a signature that verifies over the raw body with the subscription secret / received event ${first.eventId ?? '(no id)'} whose signature fails (${first.sigReason ?? 'mismatch'}): no retry can be judged`));
    return stop();
  }
  checks.push(result('retries.first-delivery', firstTitle, ['HOOK-post', 'HOOK-verify-raw'], undefined, [`event ${first.eventId ?? '(no id)'} at +${s(first.at - e.causedAt)}, answered ${first.status} on purpose`]));
  for (let i = 1; i <= e.retries; i++) {
    const prev = arrivals[i - 1]!;
    const start = e.from === 'attempt-start' ? prev.at : prev.end;
    const want = e.delaysMs[i - 1]!;
    const allow = Math.max((want * e.tolerance.pct) / 100, e.tolerance.minMs);
    const title = `retry ${i} of ${e.subject} follows ${human(want)} after the failed ${i === 1 ? 'delivery' : `retry ${i - 1}`}, with the same event id, the same body and a valid signature`;
    const cur = arrivals[i];
    if (!cur) {
      if (now - start <= want + allow) return wait();
      checks.push(result(`retries.retry-${i}`, title, ['HOOK-retry-count', 'HOOK-retry-schedule'], `expected retry ${i} ${human(want)} (±${s(allow)}) after the ${prev.status} answer / received none by +${s(now - start)}`));
      return stop();
    }
    const got = cur.at - start;
    delays.push({ retry: i, expectedMs: want, observedMs: got });
    const wrong: string[] = [];
    if (cur.eventId !== first.eventId) wrong.push(`expected the event id ${first.eventId ?? '(none)'} again / received a new event id ${cur.eventId ?? '(none)'} (matched to the event by its body and order)`);
    if (got < want - allow || got > want + allow) wrong.push(`expected retry ${i} after ${s(want)} (±${s(allow)}) / received it after ${s(got)}`);
    if (cur.raw !== first.raw && cur.eventId === first.eventId) wrong.push('expected the same body as the first delivery / received a different one under the same id');
    if (!cur.sigOk) wrong.push(`expected a valid signature / received one that fails (${cur.sigReason ?? 'mismatch'})`);
    checks.push(result(`retries.retry-${i}`, title, ['HOOK-retry-count', 'HOOK-retry-schedule', 'HOOK-idempotent'], wrong.length ? wrong.join('; ') : undefined, [`expected ${s(want)}, observed ${s(got)} (±${s(allow)})`]));
    if (wrong.length) return stop();
  }
  const last = arrivals[e.retries]!;
  const extra = arrivals[e.retries + 1];
  const title = `the ${last.status} to retry ${e.retries} ends the retries of ${e.subject}`;
  if (extra) {
    checks.push(result('retries.ends-on-2xx', title, ['HOOK-retry-count'], `expected no further delivery after the ${last.status} / received event ${extra.eventId ?? '(no id)'} again after ${s(extra.at - last.end)}`));
    return stop();
  }
  if (now - last.end < e.quietMs) {
    if (final) checks.push({ ...result('retries.ends-on-2xx', title, ['HOOK-retry-count']), status: 'skipped', message: `not observed: the watch ended ${s(now - last.end)} after the ${last.status}` });
    return wait();
  }
  const nextDue = e.delaysMs[e.retries];
  checks.push(result('retries.ends-on-2xx', title, ['HOOK-retry-count'], undefined, [`nothing more in ${s(now - last.end)}${nextDue ? `; a retry ${e.retries + 1} would have come ${human(nextDue)} later, which this run does not wait for` : ''}`]));
  return stop();
}
