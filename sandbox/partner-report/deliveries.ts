import type BetterSqlite3 from 'better-sqlite3';
import type { DeliveryObservation } from './types.ts';

// The webhook dispatcher's own record of every attempt (webhook_attempts: status, latency,
// error), read back for the report: the partner's receiver answered these, so its slow
// answers and refusals are there already, with no second record kept beside them.

interface Row {
  event_id: string;
  type: string;
  url: string;
  partner_id: string;
  status: number | null;
  latency_ms: number | null;
  error: string | null;
}

/** The newest delivery's id (0 when none): a reset's mark, so the report reads only the
 *  attempts of deliveries made after it (a retry of an older one belongs to the earlier test). */
export function lastDeliveryMark(db: BetterSqlite3.Database): number {
  try {
    return (db.prepare('SELECT MAX(id) FROM webhook_deliveries').pluck().get() as number | null) ?? 0;
  } catch {
    return 0;
  }
}

export function recordedDeliveries(db: BetterSqlite3.Database, afterMark = 0): DeliveryObservation[] {
  let rows: Row[];
  try {
    rows = db
      .prepare(
        `SELECT d.event_id, o.type, s.url, s.partner_id, a.status, a.latency_ms, a.error
         FROM webhook_attempts a
         JOIN webhook_deliveries d ON d.id = a.delivery_id
         JOIN webhook_subscriptions s ON s.id = d.webhook_id
         JOIN outbox_events o ON o.id = d.event_id
         WHERE a.delivery_id > ?
         ORDER BY a.sent_at_ms, a.delivery_id, a.attempt`,
      )
      .all(afterMark) as Row[];
  } catch {
    // No webhook tables: this sandbox runs without the webhooks plugin, so nothing was delivered.
    return [];
  }
  return rows.map((r) => ({
    eventId: r.event_id,
    type: r.type,
    url: r.url,
    partner: r.partner_id,
    latencyMs: r.latency_ms === null ? null : Math.round(r.latency_ms),
    status: r.status,
    ...(r.error ? { error: r.error } : {}),
    probe: false,
  }));
}
