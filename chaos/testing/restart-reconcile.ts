import { defaultProfile, isAckStatus, WEBHOOK_RETRY_DELAYS_MS } from '../../contract/index.ts';
import type { AttemptRow } from '../store.ts';

// Sets the sender's attempt log beside the receiver's rows, event by event. The receiver
// numbers arrivals, the sender numbers attempts; attempts refused during an outage never
// arrive, so the rows must be an ordered subsequence of the attempts in which every attempt
// the sender saw answered has its row, with the same status. A row may also belong to an
// attempt the sender saw unanswered (committed, then the process died before the answer left).

export interface SenderAttempt {
  attempt: number;
  /** Business time (the sandbox clock), epoch ms. */
  sentAtMs: number;
  status: number | null;
  error?: string;
}

export interface SenderEvent {
  eventId: string;
  /** The sender's final word on the delivery: delivered, failed or pending. */
  state: string;
  attempts: SenderAttempt[];
}

export interface Reconciliation {
  events: number;
  senderAttempts: number;
  answered: number;
  unanswered: number;
  /** Unanswered attempts by cause: refused (receiver down) or cut (connection died mid-exchange). */
  refused: number;
  cut: number;
  retries: number;
  rows: number;
  /** Answered attempts with no row of the same status: observations the receiver lost. */
  lost: number;
  /** Rows no attempt accounts for. */
  invented: number;
  /** Rows of attempts the sender saw unanswered. */
  orphanRows: number;
  notDelivered: string[];
  notObserved: string[];
  /** Events whose row numbers are not 1..k. */
  numberingBroken: string[];
  /** Events whose rows carry more than one body. */
  bodyChanged: string[];
  /** Failed attempts with no later attempt of the same event. */
  failuresNotRetried: number;
  /** Sender retries sent earlier than the schedule allows (business time; must be 0). */
  retriesEarly: number;
  /** How late retries went out after they were due, real ms (sender clock, from the failed attempt's start). */
  retryLateMaxMs: number;
  retryLateP99Ms: number;
  retryLateWorst: string;
  /** Consecutive rows with unseen attempts between them: the gap against the delays of those attempts. */
  outageGaps: number;
  outageGapDeviationMaxMs: number;
  /** Events whose rows are touched by an outage (attempts unseen between rows, or orphan rows). */
  outageTouched: Set<string>;
  examples: string[];
}

const isRefused = (s: SenderAttempt) => /ECONNREFUSED/.test(s.error ?? '');

/**
 * The embedding of rows into attempts with the fewest lost attempts plus invented rows. An
 * answered attempt takes a row of its status; an attempt cut mid-exchange may take one (the
 * receiver committed, then died before answering); a refused attempt never reached a process.
 */
function embed(S: SenderAttempt[], R: AttemptRow[]): { rowAttempt: Array<number | null>; lost: number[]; invented: number[] } {
  const memo = new Map<number, number>();
  const cost = (p: number, q: number): number => {
    if (p === S.length) return R.length - q;
    if (q === R.length) return S.slice(p).filter((s) => s.status !== null).length;
    const key = p * 1000 + q;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const s = S[p];
    let best = 1 + cost(p, q + 1); // R[q] invented
    if (s.status === null) {
      best = Math.min(best, cost(p + 1, q));
      if (!isRefused(s)) best = Math.min(best, cost(p + 1, q + 1));
    } else {
      best = Math.min(best, 1 + cost(p + 1, q)); // S[p] lost
      if (R[q].status === s.status) best = Math.min(best, cost(p + 1, q + 1));
    }
    memo.set(key, best);
    return best;
  };
  const out = { rowAttempt: [] as Array<number | null>, lost: [] as number[], invented: [] as number[] };
  let [p, q] = [0, 0];
  while (p < S.length || q < R.length) {
    const here = cost(p, q);
    const s = S[p];
    if (p === S.length) {
      out.rowAttempt.push(null);
      out.invented.push(q++);
    } else if (q === R.length) {
      if (s.status !== null) out.lost.push(s.attempt);
      p++;
    } else if ((s.status === null ? !isRefused(s) : R[q].status === s.status) && cost(p + 1, q + 1) === here) {
      out.rowAttempt.push(s.attempt);
      p++;
      q++;
    } else if (s.status === null && cost(p + 1, q) === here) p++;
    else if (s.status !== null && 1 + cost(p + 1, q) === here) {
      out.lost.push(s.attempt);
      p++;
    } else {
      out.rowAttempt.push(null);
      out.invented.push(q++);
    }
  }
  return out;
}

const delayAfter = (attempt: number) => WEBHOOK_RETRY_DELAYS_MS[attempt - 1] ?? WEBHOOK_RETRY_DELAYS_MS.at(-1)!;

export function reconcile(sent: SenderEvent[], rows: AttemptRow[], timeScale: number): Reconciliation {
  const r: Reconciliation = {
    events: sent.length, senderAttempts: 0, answered: 0, unanswered: 0, refused: 0, cut: 0, retries: 0, rows: rows.length, lost: 0, invented: 0, orphanRows: 0,
    notDelivered: [], notObserved: [], numberingBroken: [], bodyChanged: [], failuresNotRetried: 0, retriesEarly: 0, retryLateMaxMs: 0, retryLateP99Ms: 0, retryLateWorst: '',
    outageGaps: 0, outageGapDeviationMaxMs: 0, outageTouched: new Set(), examples: [],
  };
  const note = (s: string) => {
    if (r.examples.length < 20) r.examples.push(s);
  };
  const rowsOf = new Map<string, AttemptRow[]>();
  for (const row of rows) {
    const list = rowsOf.get(row.eventId ?? '') ?? [];
    list.push(row);
    rowsOf.set(row.eventId ?? '', list);
  }
  const late: number[] = [];
  for (const ev of sent) {
    const S = [...ev.attempts].sort((a, b) => a.attempt - b.attempt);
    const R = (rowsOf.get(ev.eventId) ?? []).sort((a, b) => a.attempt - b.attempt || a.seq - b.seq);
    rowsOf.delete(ev.eventId);
    r.senderAttempts += S.length;
    r.retries += Math.max(0, S.length - 1);
    if (ev.state !== 'delivered') r.notDelivered.push(ev.eventId);
    if (!R.some((x) => isAckStatus(defaultProfile, x.status))) r.notObserved.push(ev.eventId);
    if (R.some((x, i) => x.attempt !== i + 1)) r.numberingBroken.push(ev.eventId);
    if (new Set(R.map((x) => x.bodySha256)).size > 1) r.bodyChanged.push(ev.eventId);

    for (const s of S) {
      if (s.status !== null) r.answered++;
      else {
        r.unanswered++;
        if (isRefused(s)) r.refused++;
        else r.cut++;
      }
    }
    const m = embed(S, R);
    r.lost += m.lost.length;
    r.invented += m.invented.length;
    r.orphanRows += m.rowAttempt.filter((a) => a !== null && S.find((s) => s.attempt === a)!.status === null).length;
    for (const a of m.lost) note(`${ev.eventId}: attempt ${a} was answered by the receiver, no row with its status`);
    for (const k of m.invented) note(`${ev.eventId}: row ${R[k].attempt} (seq ${R[k].seq}) matches no attempt the sender made`);
    const matchedAttempt = m.rowAttempt;

    for (let k = 0; k + 1 < S.length; k++) {
      if (isAckStatus(defaultProfile, S[k].status)) continue;
      const gap = S[k + 1].sentAtMs - S[k].sentAtMs;
      const due = delayAfter(S[k].attempt);
      if (gap < due) r.retriesEarly++;
      const lateMs = (gap - due) / timeScale;
      late.push(lateMs);
      if (lateMs > r.retryLateMaxMs) {
        r.retryLateMaxMs = lateMs;
        const log = S.map((s) => `#${s.attempt} +${Math.round((s.sentAtMs - S[0].sentAtMs) / timeScale)}ms ${s.status ?? s.error}`).join(', ');
        r.retryLateWorst = `${ev.eventId} attempt ${S[k + 1].attempt}, ${Math.round(lateMs)} ms late: ${log}`;
      }
    }
    const last = S.at(-1);
    if (last && (last.status === null || last.status >= 300) && ev.state !== 'pending') r.failuresNotRetried++;
    if (R.some((_, k) => S.find((s) => s.attempt === matchedAttempt[k])?.status === null)) r.outageTouched.add(ev.eventId);
    for (let k = 0; k + 1 < R.length; k++) {
      const [a, b] = [matchedAttempt[k], matchedAttempt[k + 1]];
      if (a === null || b === null || b === a + 1) continue;
      r.outageTouched.add(ev.eventId);
      r.outageGaps++;
      let expected = 0;
      for (let n = a; n < b; n++) expected += delayAfter(n) / timeScale;
      const observed = R[k + 1].arrivalMs - (R[k].endedMs ?? R[k].arrivalMs);
      r.outageGapDeviationMaxMs = Math.max(r.outageGapDeviationMaxMs, Math.abs(observed - expected));
    }
  }
  late.sort((x, y) => x - y);
  r.retryLateP99Ms = late[Math.floor(late.length * 0.99)] ?? 0;
  for (const [id, list] of rowsOf) {
    r.invented += list.length;
    note(`${list.length} row(s) of event ${id || '(no id)'}, which the sender never emitted`);
  }
  return r;
}
