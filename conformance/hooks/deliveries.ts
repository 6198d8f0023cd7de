import type * as results from '../../kernel/results.ts';
import type { FailureDetail } from '../check.ts';
import type { HookReceiver, Seen } from './receiver.ts';

// Reading what a receiver got: each delivery as the event it carries, named the way a failure
// message names it (event id, type, user, position), and as the reproduction's record.

export interface Event {
  id?: string;
  type?: string;
  userId?: string;
  positionId?: string;
  data?: Record<string, unknown>;
}

export function eventOf(d: Seen): Event | undefined {
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

export function headersOf(d: Seen): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** A delivery as an exchange record, so a failure shows what the sender sent. */
export function asExchange(d: Seen, rx: HookReceiver): results.Exchange {
  return { method: d.method, url: rx.url, status: d.answeredAt ? 200 : 0, requestHeaders: headersOf(d), requestBody: d.raw.toString('utf8').slice(0, 4096), responseHeaders: {}, durationMs: (d.answeredAt ?? d.gaveUpAt ?? d.at) - d.at };
}

/** What a receiver got, for the failure's reproduction (the first 10 deliveries). */
export function deliveriesDetail(rx: HookReceiver): FailureDetail {
  const t0 = rx.got[0]?.at ?? 0;
  return {
    deliveries: rx.got.slice(0, 10).map((d) => ({ atMs: d.at - t0, method: d.method, headers: headersOf(d), body: d.raw.toString('utf8').slice(0, 4096), ...(d.answeredAt ? { status: 200 } : {}) })),
    timeline: rx.got.map((d) => `+${((d.at - t0) / 1000).toFixed(1)} s ${named(eventOf(d))}${d.gaveUpAt ? `: the sender hung up after ${((d.gaveUpAt - d.at) / 1000).toFixed(1)} s` : d.answeredAt ? `: answered 200 after ${((d.answeredAt - d.at) / 1000).toFixed(1)} s` : ''}`).join('\n'),
  };
}
