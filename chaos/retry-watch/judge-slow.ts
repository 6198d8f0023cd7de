import type * as results from '../../kernel/results.ts';
import { human, result, s, type Expect } from './judge.ts';
import { ownAnswerLate, SLOW_ANSWER_MS } from '../../contract/index.ts';

// Part 6 rule 1 from the sender's side, at real time: a second event of the watch is answered
// 200 after SLOW_ANSWER_MS, inside the receiver's 5 s. The sender must hold the connection for
// the answer (one that hangs up first is seen at once) and count it delivered: no retry by when
// retry 1 would have been due (1 min), which the watch's 6 minutes cover.
// (SLOW_ANSWER_MS and LATE_ANSWER_MS: contract/webhook-ack.ts, shared with conformance's hooks.answer-window.)

export interface SlowSeen {
  at: number;
  eventId?: string;
  answeredAt?: number;
  gaveUpAt?: number;
}

export interface SlowJudgement {
  done: boolean;
  check?: results.CheckResult;
}

export function judgeSlow(arrivals: readonly SlowSeen[], e: Expect, now: number, final = false): SlowJudgement {
  const title = `a delivery answered 200 after ${s(SLOW_ANSWER_MS)} (inside part 6's 5 s) is delivered: the sender waits for the answer and sends no retry`;
  const req = ['HOOK-retry-count', 'HOOK-post'];
  const notSeen = (why: string): SlowJudgement => ({ done: true, check: { ...result('retries.answer-window', title, req), status: 'skipped', message: `not observed: ${why}` } });
  const first = arrivals[0];
  if (!first) {
    if (now - e.causedAt > e.firstMs) return { done: true, check: result('retries.answer-window', title, req, `expected a delivery of the second watched event within ${s(e.firstMs)} / received none`) };
    return final ? notSeen(`the watch ended after ${s(now - e.causedAt)}, before its delivery`) : { done: false };
  }
  const id = `${first.eventId ?? '(no id)'} (${e.subject})`;
  // A hang-up after the planned answer time means our own answer came late (a loaded machine's
  // timers): the sender may have waited its full 5 s, so it is not judged.
  if (first.gaveUpAt !== undefined && first.gaveUpAt - first.at >= SLOW_ANSWER_MS) return notSeen(`the sender hung up after ${s(first.gaveUpAt - first.at)}, when this receiver's own answer, due at ${s(SLOW_ANSWER_MS)}, was late`);
  if (first.gaveUpAt !== undefined) return { done: true, check: result('retries.answer-window', title, req, `expected the connection held until the 200 at ${s(SLOW_ANSWER_MS)} / received: the sender hung up on event ${id} after ${s(first.gaveUpAt - first.at)}, so a receiver answering within 5 s is counted as failed`) };
  const again = arrivals[1];
  const tookMs = first.answeredAt === undefined ? undefined : first.answeredAt - first.at;
  // Our 200 went out well after its planned moment (this process's timers, a loaded machine):
  // the time it left the sender is ours, not the sender's, so a retry after it is not judged.
  if (again && ownAnswerLate(first)) return notSeen(`this receiver's own 200 to event ${id}, due ${s(SLOW_ANSWER_MS)} after its arrival, went out after ${s(tookMs!)} (a loaded machine), so the retry that followed ${s(again.at - first.answeredAt!)} later says nothing of the sender's wait`);
  if (again) return { done: true, check: result('retries.answer-window', title, req, `expected no retry of event ${id}, answered 200 after ${s(tookMs ?? SLOW_ANSWER_MS)} / received it again ${s(again.at - (first.answeredAt ?? first.at))} after the 200${again.eventId && again.eventId !== first.eventId ? ` under a new id ${again.eventId}` : ''}`) };
  if (first.answeredAt === undefined) return final ? notSeen('the watch ended while the answer was held') : { done: false };
  const want = e.delaysMs[0]!;
  const bound = want + Math.max((want * e.tolerance.pct) / 100, e.tolerance.minMs);
  if (now - first.answeredAt > bound) return { done: true, check: result('retries.answer-window', title, req, undefined, [`event ${id} answered 200 after ${s(first.answeredAt - first.at)}; no redelivery in ${s(now - first.answeredAt)} (retry 1 would have come ${human(want)} after a failure)`]) };
  return final ? notSeen(`the watch ended ${s(now - first.answeredAt)} after the 200, before a retry would have been due (${human(want)})`) : { done: false };
}
