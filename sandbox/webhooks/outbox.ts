import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { EventType } from '../../contract/index.ts';

// Writing an event into the outbox. The engine does this itself inside each change's
// transaction; this helper serves synthetic events (sandbox trigger without a position)
// when the engine offers no emit(), and tests that run the dispatcher without the core.

export interface OutboxEvent {
  seq: number;
  id: string;
  type: EventType;
  partnerId: string;
  /** The envelope bytes exactly as delivered. */
  payload: string;
}

export function envelopeJson(id: string, type: EventType, nowMs: number, data: Record<string, unknown>): string {
  return JSON.stringify({ id, type, timestamp: new Date(nowMs).toISOString(), data });
}

export function insertOutboxEvent(db: BetterSqlite3.Database, partnerId: string, type: EventType, data: Record<string, unknown>, nowMs: number): OutboxEvent {
  const id = `evt_${randomUUID().replaceAll('-', '')}`;
  const payload = envelopeJson(id, type, nowMs, data);
  const r = db
    .prepare('INSERT INTO outbox_events (id, partner_id, type, payload, created_at_ms) VALUES (?, ?, ?, ?, ?)')
    .run(id, partnerId, type, payload, nowMs);
  return { seq: Number(r.lastInsertRowid), id, type, partnerId, payload };
}
