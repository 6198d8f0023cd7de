import type BetterSqlite3 from 'better-sqlite3';
import type { z } from 'zod';
import type { controls } from '../../contract/index.ts';
import { iso } from '../engine/rows.ts';

// The control view of one event's deliveries (GET /v1/sandbox/events/{eventId}/attempts):
// every recorded attempt, plus the next scheduled one of each delivery still pending.

type AttemptsResponse = z.infer<typeof controls.attemptsResponse>;
type Attempt = AttemptsResponse['attempts'][number];

export function eventAttempts(db: BetterSqlite3.Database, partnerId: string, eventId: string): AttemptsResponse | undefined {
  const ev = db.prepare('SELECT seq, type FROM outbox_events WHERE id = ? AND partner_id = ?').get(eventId, partnerId) as
    | { seq: number; type: AttemptsResponse['type'] }
    | undefined;
  if (!ev) return undefined;
  const deliveries = db
    .prepare("SELECT id, webhook_id, attempts, state, next_at_ms FROM webhook_deliveries WHERE event_id = ? AND state != 'cancelled' ORDER BY id")
    .all(eventId) as Array<{ id: number; webhook_id: string; attempts: number; state: string; next_at_ms: number }>;
  const rows = db
    .prepare(
      `SELECT a.delivery_id, a.attempt, a.scheduled_at_ms, a.sent_at_ms, a.status, a.outcome, a.error
       FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
       WHERE d.event_id = ? AND d.state != 'cancelled' ORDER BY a.delivery_id, a.attempt`,
    )
    .all(eventId) as Array<{ delivery_id: number; attempt: number; scheduled_at_ms: number; sent_at_ms: number; status: number | null; outcome: 'succeeded' | 'failed'; error: string | null }>;
  const hookOf = new Map(deliveries.map((d) => [d.id, d.webhook_id]));
  const attempts: Attempt[] = rows.map((r) => ({
    attempt: r.attempt,
    webhookId: hookOf.get(r.delivery_id)!,
    scheduledAt: iso(r.scheduled_at_ms),
    sentAt: iso(r.sent_at_ms),
    status: r.status,
    outcome: r.outcome,
    ...(r.error ? { error: r.error } : {}),
  }));
  for (const d of deliveries) {
    if (d.state === 'pending') attempts.push({ attempt: d.attempts + 1, webhookId: d.webhook_id, scheduledAt: iso(d.next_at_ms), status: null, outcome: 'pending' });
  }
  const cursor = db.prepare('SELECT last_seq FROM webhook_dispatch_state WHERE id = 1').pluck().get() as number;
  const fannedOut = ev.seq <= cursor;
  let state: AttemptsResponse['state'];
  if (!fannedOut || deliveries.some((d) => d.state === 'pending')) state = 'pending';
  else if (deliveries.some((d) => d.state === 'failed')) state = 'failed';
  // With no subscription wanting the event, nothing is left to deliver: "delivered" to every subscriber there is.
  else state = 'delivered';
  return { eventId, type: ev.type, state, subscriptions: deliveries.length, attempts };
}
