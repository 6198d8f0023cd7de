import type BetterSqlite3 from 'better-sqlite3';
import type { z } from 'zod';
import type { controls } from '../../contract/index.ts';
import { iso } from '../store/rows.ts';

// The control views of deliveries: one event's attempts (GET /v1/sandbox/events/{eventId}/attempts)
// and the delivery log of the console (GET /v1/sandbox/deliveries): every recorded attempt,
// with its latency, the first bytes of the answer and the signature it carried, plus the
// next scheduled one of each delivery still pending.

type AttemptsResponse = z.infer<typeof controls.attemptsResponse>;
type Attempt = AttemptsResponse['attempts'][number];
type DeliveriesResponse = z.infer<typeof controls.deliveriesResponse>;

interface AttemptRow {
  delivery_id: number;
  attempt: number;
  scheduled_at_ms: number;
  sent_at_ms: number;
  status: number | null;
  outcome: 'succeeded' | 'failed';
  error: string | null;
  latency_ms: number | null;
  response: string | null;
  signature: string | null;
}
interface DeliveryRow {
  id: number;
  event_id: string;
  webhook_id: string;
  attempts: number;
  state: string;
  next_at_ms: number;
}

function attemptsOf(db: BetterSqlite3.Database, eventId: string): { deliveries: DeliveryRow[]; attempts: Attempt[] } {
  const deliveries = db
    .prepare("SELECT id, event_id, webhook_id, attempts, state, next_at_ms FROM webhook_deliveries WHERE event_id = ? AND state != 'cancelled' ORDER BY id")
    .all(eventId) as DeliveryRow[];
  const rows = db
    .prepare(
      `SELECT a.delivery_id, a.attempt, a.scheduled_at_ms, a.sent_at_ms, a.status, a.outcome, a.error, a.latency_ms, a.response, a.signature
       FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
       WHERE d.event_id = ? AND d.state != 'cancelled' ORDER BY a.delivery_id, a.attempt`,
    )
    .all(eventId) as AttemptRow[];
  const hookOf = new Map(deliveries.map((d) => [d.id, d.webhook_id]));
  const attempts: Attempt[] = rows.map((r) => ({
    attempt: r.attempt,
    webhookId: hookOf.get(r.delivery_id)!,
    scheduledAt: iso(r.scheduled_at_ms),
    sentAt: iso(r.sent_at_ms),
    status: r.status,
    outcome: r.outcome,
    ...(r.error ? { error: r.error } : {}),
    ...(r.latency_ms !== null ? { latencyMs: r.latency_ms } : {}),
    ...(r.response !== null ? { response: r.response } : {}),
    ...(r.signature ? { signature: r.signature } : {}),
  }));
  for (const d of deliveries) {
    if (d.state === 'pending') attempts.push({ attempt: d.attempts + 1, webhookId: d.webhook_id, scheduledAt: iso(d.next_at_ms), status: null, outcome: 'pending' });
  }
  return { deliveries, attempts };
}

function stateOf(db: BetterSqlite3.Database, seq: number, deliveries: DeliveryRow[]): AttemptsResponse['state'] {
  const cursor = db.prepare('SELECT last_seq FROM webhook_dispatch_state WHERE id = 1').pluck().get() as number;
  if (seq > cursor || deliveries.some((d) => d.state === 'pending')) return 'pending';
  if (deliveries.some((d) => d.state === 'failed')) return 'failed';
  // With no subscription wanting the event, nothing is left to deliver: "delivered" to every subscriber there is.
  return 'delivered';
}

export function eventAttempts(db: BetterSqlite3.Database, partnerId: string, eventId: string): AttemptsResponse | undefined {
  const ev = db.prepare('SELECT seq, type FROM outbox_events WHERE id = ? AND partner_id = ?').get(eventId, partnerId) as
    | { seq: number; type: AttemptsResponse['type'] }
    | undefined;
  if (!ev) return undefined;
  const { deliveries, attempts } = attemptsOf(db, eventId);
  return { eventId, type: ev.type, state: stateOf(db, ev.seq, deliveries), subscriptions: deliveries.length, attempts };
}

/** The newest `limit` events of a partner with every attempt, and its subscriptions with their state. */
export function deliveryLog(db: BetterSqlite3.Database, partnerId: string, limit: number): DeliveriesResponse {
  const subs = db
    .prepare('SELECT id, url, events, created_at_ms, paused_at_ms, disabled_at_ms FROM webhook_subscriptions WHERE partner_id = ? AND deleted_at_ms IS NULL ORDER BY created_at_ms, id')
    .all(partnerId) as Array<{ id: string; url: string; events: string; created_at_ms: number; paused_at_ms: number | null; disabled_at_ms: number | null }>;
  const events = db
    .prepare('SELECT seq, id, type, payload, created_at_ms FROM outbox_events WHERE partner_id = ? ORDER BY seq DESC LIMIT ?')
    .all(partnerId, limit) as Array<{ seq: number; id: string; type: AttemptsResponse['type']; payload: string; created_at_ms: number }>;
  return {
    subscriptions: subs.map((s) => ({
      webhookId: s.id,
      url: s.url,
      events: JSON.parse(s.events) as string[],
      createdAt: iso(s.created_at_ms),
      paused: s.paused_at_ms !== null,
      disabled: s.disabled_at_ms !== null,
    })),
    events: events.map((e) => {
      const { deliveries, attempts } = attemptsOf(db, e.id);
      const env = JSON.parse(e.payload) as { data?: Record<string, unknown> };
      return { eventId: e.id, type: e.type, createdAt: iso(e.created_at_ms), data: env.data ?? {}, state: stateOf(db, e.seq, deliveries), attempts };
    }),
  };
}
