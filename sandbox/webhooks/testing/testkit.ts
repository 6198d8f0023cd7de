import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import type { EventType } from '../../../contract/index.ts';
import { OUTBOX_DDL } from '../../store/outbox.ts';
import { migrateWebhooks } from '../../store/webhook-schema.ts';
import { generateSecret } from '../subscriptions.ts';

// Shared by the webhook tests and benchmarks: a loopback receiver that records what
// arrives, and a database with the core's outbox DDL for running without the core.

export interface Received {
  /** performance.now() at arrival. */
  at: number;
  body: string;
  headers: IncomingHttpHeaders;
}

export type Answer = (r: Received, n: number) => { status: number; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves when at least n requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Answer = () => ({ status: 200 }), opts: { record?: boolean } = {}): Promise<Receiver> {
  const received: Received[] = [];
  let count = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { at: performance.now(), body: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
      count++;
      if (opts.record !== false) received.push(r);
      for (const w of [...waiters]) {
        if (count < w.n) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const a = answer(r, count);
      if (a === 'hang') return;
      const reply = () => res.writeHead(a.status, { 'content-type': 'text/plain' }).end('ok');
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get count() {
      return count;
    },
    waitFor(n, timeoutMs = 10_000) {
      if (count >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`receiver got ${count} of ${n} requests within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(t), resolve()) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } as Receiver;
}

/** A database with the core's outbox DDL and the webhook tables. */
export function outboxDb(file = ':memory:'): Database.Database {
  const db = new Database(file);
  if (file !== ':memory:') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.exec(OUTBOX_DDL);
  migrateWebhooks(db);
  return db;
}

export function addSubscription(
  db: Database.Database,
  partnerId: string,
  url: string,
  events: readonly EventType[],
  opts: { secret?: string; afterSeq?: number; id?: string } = {},
): { id: string; secret: string } {
  const id = opts.id ?? `wh_test_${Math.random().toString(36).slice(2, 10)}`;
  const secret = opts.secret ?? generateSecret();
  db.prepare('INSERT INTO webhook_subscriptions (id, partner_id, url, events, secret, after_seq, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    id,
    partnerId,
    url,
    JSON.stringify(events),
    secret,
    opts.afterSeq ?? 0,
    0,
  );
  return { id, secret };
}
