import { iso } from './rows.ts';
import type Database from 'better-sqlite3';
import { newId } from './ids.ts';

// The transactional outbox: one table, one row type and one writer, shared by the engine
// (which appends inside each change's transaction) and by tests and benchmarks that run
// the webhook dispatcher without the core. The dispatcher reads the table by seq.
// It names better-sqlite3's Database itself, not db.ts's alias: db.ts imports the DDL from here.
type Db = Database.Database;

export const OUTBOX_DDL =
  'CREATE TABLE IF NOT EXISTS outbox_events (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, partner_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, created_at_ms INTEGER NOT NULL)';

/** One outbox row; `T` narrows the type when the caller knows it (an EventType). */
export interface OutboxEvent<T extends string = string> {
  seq: number;
  id: string;
  partnerId: string;
  type: T;
  /** The envelope bytes exactly as delivered: {id, type, timestamp, data}. */
  payload: string;
}

const inserts = new WeakMap<Db, { run(...params: unknown[]): { lastInsertRowid: number | bigint } }>();

/** Appends one event; inside a transaction it commits or rolls back with it. */
export function appendOutboxEvent<T extends string>(db: Db, partnerId: string, type: T, data: Record<string, unknown>, atMs: number): OutboxEvent<T> {
  let insert = inserts.get(db);
  if (!insert) {
    // run() and lastInsertRowid (seq is the rowid) rather than RETURNING: a RETURNING insert
    // runs as a query with a row to fetch, measurably dearer on the order path.
    insert = db.prepare('INSERT INTO outbox_events (id, partner_id, type, payload, created_at_ms) VALUES (?, ?, ?, ?, ?)');
    inserts.set(db, insert);
  }
  const id = newId('evt');
  const payload = JSON.stringify({ id, type, timestamp: iso(atMs), data });
  const seq = Number(insert.run(id, partnerId, type, payload, atMs).lastInsertRowid);
  return { seq, id, partnerId, type, payload };
}
