import type BetterSqlite3 from 'better-sqlite3';
import { schemaIsWhole } from './whole-schema.ts';

// The webhook tables. The outbox (outbox_events, store/outbox.ts) belongs to the core, which writes it in the
// same transaction as each change; everything below is the dispatcher's own state, so a
// restart resumes exactly where the last committed step left off.

export const WEBHOOK_SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_subscriptions (
  id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,            -- JSON array of event types
  secret TEXT NOT NULL,
  after_seq INTEGER NOT NULL,      -- outbox seq at creation: only later events go to it
  created_at_ms INTEGER NOT NULL,
  deleted_at_ms INTEGER,
  disabled_at_ms INTEGER,
  paused_at_ms INTEGER);           -- paused (sandbox control): deliveries queue, none is sent
CREATE INDEX IF NOT EXISTS webhook_subscriptions_by_partner ON webhook_subscriptions (partner_id, created_at_ms);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_seq INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  webhook_id TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL,             -- pending | succeeded | failed | cancelled
  next_at_ms INTEGER NOT NULL,     -- business time of the next attempt
  UNIQUE (event_id, webhook_id));
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, next_at_ms);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due_by_hook ON webhook_deliveries (webhook_id, state, next_at_ms);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_event ON webhook_deliveries (event_id);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  delivery_id INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  scheduled_at_ms INTEGER NOT NULL,
  sent_at_ms INTEGER NOT NULL,
  status INTEGER,
  outcome TEXT NOT NULL,           -- succeeded | failed
  error TEXT,
  latency_ms REAL,                 -- real ms from sending to the answer or the error
  response TEXT,                   -- the first bytes of the answer
  signature TEXT,                  -- the x-service-signature value sent
  PRIMARY KEY (delivery_id, attempt)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS webhook_dispatch_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL);
INSERT OR IGNORE INTO webhook_dispatch_state (id, last_seq) VALUES (1, 0);
`;

/** Columns added after the first release: a database from before gets them on open. */
const ADDED_COLUMNS: Array<[table: string, column: string, type: string]> = [
  ['webhook_subscriptions', 'paused_at_ms', 'INTEGER'],
  ['webhook_attempts', 'latency_ms', 'REAL'],
  ['webhook_attempts', 'response', 'TEXT'],
  ['webhook_attempts', 'signature', 'TEXT'],
];

export function migrateWebhooks(db: BetterSqlite3.Database): void {
  // A copy of the prepared in-memory image (store/memory-image.ts) was migrated as it was made.
  if (schemaIsWhole(db)) return;
  db.exec(WEBHOOK_SCHEMA);
  for (const [table, column, type] of ADDED_COLUMNS) {
    const has = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).some((c) => c.name === column);
    if (!has) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}
