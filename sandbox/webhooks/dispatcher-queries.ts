import type BetterSqlite3 from 'better-sqlite3';

// The dispatcher's prepared statements (dispatcher.ts), apart so the dispatcher reads as its logic.

export function dispatcherQueries(db: BetterSqlite3.Database) {
  return {
    cursor: db.prepare('SELECT last_seq FROM webhook_dispatch_state WHERE id = 1').pluck(),
    setCursor: db.prepare('UPDATE webhook_dispatch_state SET last_seq = ? WHERE id = 1'),
    outbox: db.prepare('SELECT seq, id, partner_id, type FROM outbox_events WHERE seq > ? ORDER BY seq LIMIT ?'),
    subs: db.prepare(
      'SELECT id, partner_id, events, after_seq FROM webhook_subscriptions WHERE partner_id = ? AND deleted_at_ms IS NULL AND disabled_at_ms IS NULL',
    ),
    // Every partner's: only a routing fault (webhooks/faults/) ever reads it.
    allSubs: db.prepare('SELECT id, partner_id, events, after_seq FROM webhook_subscriptions WHERE deleted_at_ms IS NULL AND disabled_at_ms IS NULL'),
    addDelivery: db.prepare(
      "INSERT OR IGNORE INTO webhook_deliveries (event_seq, event_id, webhook_id, attempts, state, next_at_ms) VALUES (?, ?, ?, 0, 'pending', ?)",
    ),
    // Deleted or disabled subscriptions have no pending deliveries (they are cancelled with them);
    // a paused one keeps them queued, unsent, until it is resumed.
    hooks: db.prepare('SELECT id FROM webhook_subscriptions WHERE deleted_at_ms IS NULL AND disabled_at_ms IS NULL AND paused_at_ms IS NULL').pluck(),
    dueFor: db.prepare(
      `SELECT d.id, d.event_id, d.webhook_id, d.attempts, d.next_at_ms, s.url, s.secret, e.payload
       FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.webhook_id JOIN outbox_events e ON e.seq = d.event_seq
       WHERE d.webhook_id = ? AND d.state = 'pending' AND d.next_at_ms <= ? ORDER BY d.next_at_ms, d.id LIMIT ?`,
    ),
    nextFuture: db.prepare("SELECT MIN(next_at_ms) FROM webhook_deliveries WHERE state = 'pending' AND next_at_ms > ?").pluck(),
    addAttempt: db.prepare(
      'INSERT OR REPLACE INTO webhook_attempts (delivery_id, attempt, scheduled_at_ms, sent_at_ms, status, outcome, error, latency_ms, response, signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    // An attempt already on the wire when its subscription was deleted still arrived: record that.
    succeed: db.prepare("UPDATE webhook_deliveries SET state = 'succeeded', attempts = ? WHERE id = ? AND state IN ('pending', 'cancelled')"),
    retry: db.prepare("UPDATE webhook_deliveries SET attempts = ?, next_at_ms = ? WHERE id = ? AND state = 'pending'"),
    fail: db.prepare("UPDATE webhook_deliveries SET state = 'failed', attempts = ? WHERE id = ? AND state = 'pending'"),
    dropAttempts: db.prepare('DELETE FROM webhook_attempts WHERE delivery_id = ?'),
    dropDelivery: db.prepare('DELETE FROM webhook_deliveries WHERE id = ?'),
    disableSub: db.prepare('UPDATE webhook_subscriptions SET disabled_at_ms = ? WHERE id = ? AND disabled_at_ms IS NULL'),
    cancelPendingOf: db.prepare("UPDATE webhook_deliveries SET state = 'cancelled' WHERE webhook_id = ? AND state = 'pending'"),
  };
}
