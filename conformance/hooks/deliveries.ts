import type * as results from '../../kernel/results.ts';
import type { FailureDetail } from '../check.ts';
import { arrivalExchange, flatHeaders, startRecordingReceiver, type Arrival, type RecordingReceiver } from '../../receiver/recording.ts';

// Reading what a receiver got: each delivery as the event it carries, named the way a failure
// message names it (event id, type, user, position), and as the reproduction's record.

/** One of the scenario's receivers: lendcheck's recording receiver, with whom it stands for in a failure message. */
export interface HookReceiver extends RecordingReceiver {
  /** e.g. "partner A's subscription to position.matched only". */
  label: string;
}

/** A receiver answering 200, at once or after `answerAfterMs`. */
export async function startHookReceiver(label: string, answerAfterMs = 0): Promise<HookReceiver> {
  return Object.assign(await startRecordingReceiver({ path: '/lendcheck-hook', decide: () => ({ status: 200, afterMs: answerAfterMs }) }), { label });
}

export interface Event {
  id?: string;
  type?: string;
  userId?: string;
  positionId?: string;
  data?: Record<string, unknown>;
}

export function eventOf(d: Arrival): Event | undefined {
  try {
    const j = JSON.parse(d.raw.toString('utf8')) as Record<string, unknown>;
    const data = j.data && typeof j.data === 'object' ? (j.data as Record<string, unknown>) : undefined;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return { id: str(j.id), type: str(j.type), userId: str(data?.userId), positionId: str(data?.positionId), data };
  } catch {
    return undefined;
  }
}

/** "event evt_1 (position.matched) about user u1, position pos_1". */
export function named(e: Event | undefined): string {
  if (!e) return 'a delivery whose body is not JSON';
  const about = [e.userId ? `user ${e.userId}` : '', e.positionId ? `position ${e.positionId}` : ''].filter(Boolean).join(', ');
  return `event ${e.id ?? '(no id)'} (${e.type ?? 'no type'})${about ? ` about ${about}` : ''}`;
}

/** A delivery as an exchange record, so a failure shows what the sender sent. */
export function asExchange(d: Arrival, rx: HookReceiver): results.Exchange {
  return arrivalExchange(d, rx.url);
}

/** What a receiver got, for the failure's reproduction (the first 10 deliveries). */
export function deliveriesDetail(rx: HookReceiver): FailureDetail {
  const t0 = rx.got[0]?.at ?? 0;
  return {
    deliveries: rx.got.slice(0, 10).map((d) => ({ atMs: d.at - t0, method: d.method, headers: flatHeaders(d), body: d.raw.toString('utf8').slice(0, 4096), ...(d.answeredAt ? { status: d.status } : {}) })),
    timeline: rx.got.map((d) => `+${((d.at - t0) / 1000).toFixed(1)} s ${named(eventOf(d))}${d.gaveUpAt ? `: the sender hung up after ${((d.gaveUpAt - d.at) / 1000).toFixed(1)} s` : d.answeredAt ? `: answered ${d.status} after ${((d.answeredAt - d.at) / 1000).toFixed(1)} s` : ''}`).join('\n'),
  };
}
