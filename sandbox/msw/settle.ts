import type { Sandbox } from '../app.ts';

// "Every due webhook delivery has been attempted and recorded", read from the dispatcher's
// own tables: its cursor has reached the outbox's last event, and no delivery of a live,
// unpaused subscription is pending with its next attempt at or before the business time
// (a delivery in flight stays pending until its attempt is recorded).

const MAX_WAIT_MS = 30_000;

export async function settleWebhooks(sandbox: Sandbox): Promise<void> {
  const { db, engine } = sandbox;
  const cursor = db.prepare('SELECT last_seq FROM webhook_dispatch_state WHERE id = 1').pluck();
  const last = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM outbox_events').pluck();
  const due = db
    .prepare(
      `SELECT COUNT(*) FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.webhook_id
       WHERE d.state = 'pending' AND d.next_at_ms <= ? AND s.deleted_at_ms IS NULL AND s.disabled_at_ms IS NULL AND s.paused_at_ms IS NULL`,
    )
    .pluck();
  const until = performance.now() + MAX_WAIT_MS;
  for (;;) {
    await engine.pendingCommit();
    // A turn for the dispatcher's setImmediate round, then its 5 ms batch of completions.
    await new Promise((r) => setImmediate(r));
    const caughtUp = ((cursor.get() as number | undefined) ?? 0) >= (last.get() as number);
    if (caughtUp && (due.get(sandbox.clock.now()) as number) === 0) return;
    if (performance.now() > until) throw new Error(`webhooks did not settle within ${MAX_WAIT_MS / 1000} s (a handler that never answers?)`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
