import type BetterSqlite3 from 'better-sqlite3';

// The delivery controls behind the console's buttons (and anyone's curl): resend an event now,
// pause and resume a subscription. Each is one statement or one transaction on the
// dispatcher's tables; the dispatcher, kicked afterwards, does the sending as for any delivery.

/**
 * Makes the event's deliveries (to one subscription, or every one it went to) due now, as one
 * more attempt with the same event id. A subscription named that never got the event gets a
 * delivery of it. A resend that fails goes on with the retry schedule from where the delivery
 * was (after the last retry, as the profile's afterFinalRetry says).
 * Returns the number of deliveries made due, or why none could be.
 */
export function resendEvent(db: BetterSqlite3.Database, partnerId: string, eventId: string, webhookId: string | undefined, nowMs: number): number | 'no-event' | 'no-subscription' {
  return db.transaction(() => {
    const ev = db.prepare('SELECT seq FROM outbox_events WHERE id = ? AND partner_id = ?').get(eventId, partnerId) as { seq: number } | undefined;
    if (!ev) return 'no-event' as const;
    const live = 'SELECT id FROM webhook_subscriptions WHERE partner_id = ? AND deleted_at_ms IS NULL AND disabled_at_ms IS NULL';
    if (webhookId !== undefined) {
      const sub = db.prepare(`${live} AND id = ?`).get(partnerId, webhookId);
      if (!sub) return 'no-subscription' as const;
      db.prepare("INSERT OR IGNORE INTO webhook_deliveries (event_seq, event_id, webhook_id, attempts, state, next_at_ms) VALUES (?, ?, ?, 0, 'pending', ?)").run(ev.seq, eventId, webhookId, nowMs);
    }
    const r = db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'pending', next_at_ms = ?
         WHERE event_id = ? AND webhook_id IN (${live}) ${webhookId !== undefined ? 'AND webhook_id = ?' : ''}`,
      )
      .run(...[nowMs, eventId, partnerId, ...(webhookId !== undefined ? [webhookId] : [])]);
    return r.changes === 0 && webhookId === undefined ? ('no-subscription' as const) : r.changes;
  })();
}

/** Pauses (deliveries queue, none is sent) or resumes a subscription; false when the partner has no such live subscription. */
export function setPaused(db: BetterSqlite3.Database, partnerId: string, webhookId: string, paused: boolean, nowMs: number): boolean {
  const r = db
    .prepare('UPDATE webhook_subscriptions SET paused_at_ms = ? WHERE id = ? AND partner_id = ? AND deleted_at_ms IS NULL')
    .run(paused ? nowMs : null, webhookId, partnerId);
  return r.changes > 0;
}
