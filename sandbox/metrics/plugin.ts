import type BetterSqlite3 from 'better-sqlite3';
import { Gauge, Registry } from 'prom-client';
import type { SandboxPlugin } from '../pipeline/plugin.ts';
import { andThen } from '../pipeline/stage.ts';
import { durationHistogram, RequestCounts, requestsCounter } from './counts.ts';

// `lendcheck sandbox --metrics`: GET /metrics in Prometheus text format (prom-client).
// Requests and latency by the contract's endpoint id, measured around everything the
// sandbox does (limiter, auth, engine, commit), so the counts equal what a load tool sent;
// book depth, outbox backlog and delivery outcomes read from the database at scrape time.
// Register it before the other plugins so its stage wraps theirs (429s counted too).

export const METRICS_PATH = '/metrics';

/** Rows of a query, or none when a table is absent (the webhooks plugin may be off). */
function rows<T>(db: BetterSqlite3.Database, sql: string): T[] {
  try {
    return db.prepare(sql).all() as T[];
  } catch {
    return [];
  }
}

export function metricsPlugin(opts: { registry?: Registry } = {}): SandboxPlugin {
  const registry = opts.registry ?? new Registry();
  const counts = new RequestCounts();
  requestsCounter(counts, { name: 'lendcheck_sandbox_http_requests_total', help: 'Requests answered under /v1, by contract endpoint id, method and status', registry });
  durationHistogram(counts, { name: 'lendcheck_sandbox_http_request_duration_seconds', help: 'Time from receiving a /v1 request to its committed answer, by contract endpoint id', registry });
  let db: BetterSqlite3.Database | undefined;
  new Gauge({
    name: 'lendcheck_sandbox_book_depth',
    help: 'Open (pending) orders per market and side',
    labelNames: ['market', 'side'],
    registers: [registry],
    collect() {
      this.reset();
      if (!db) return;
      for (const r of rows<{ market: string; type: string; n: number }>(db, "SELECT market, type, COUNT(*) AS n FROM positions WHERE status = 'pending' GROUP BY market, type")) {
        this.set({ market: r.market, side: r.type }, r.n);
      }
    },
  });
  new Gauge({
    name: 'lendcheck_sandbox_outbox_backlog',
    help: 'Outbox events not yet handed to the webhook dispatcher',
    registers: [registry],
    collect() {
      if (!db) return;
      const r = rows<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM outbox_events WHERE seq > (SELECT last_seq FROM webhook_dispatch_state WHERE id = 1)');
      this.set(r[0]?.n ?? 0);
    },
  });
  /** A gauge of row counts grouped by one column, read at scrape time. */
  const countBy = (name: string, help: string, label: string, table: string, column: string) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      collect() {
        this.reset();
        if (!db) return;
        for (const r of rows<{ k: string; n: number }>(db, `SELECT ${column} AS k, COUNT(*) AS n FROM ${table} GROUP BY ${column}`)) this.set({ [label]: r.k }, r.n);
      },
    });
  countBy('lendcheck_sandbox_webhook_deliveries', 'Webhook deliveries by state (pending ones are waiting for a retry)', 'state', 'webhook_deliveries', 'state');
  countBy('lendcheck_sandbox_webhook_attempts', 'Webhook delivery attempts made, by outcome (a gauge: read from the dispatcher state at scrape time)', 'outcome', 'webhook_attempts', 'outcome');

  return {
    name: 'metrics',
    stage(ctx) {
      db = ctx.db;
      return (req, next) => {
        const t0 = performance.now();
        return andThen(next(), (a) => {
          // The router named the endpoint; no route (or a method the path lacks) is 'unmatched'.
          counts.record(req.endpoint ?? 'unmatched', req.method, a.status, (performance.now() - t0) / 1000);
          return a;
        });
      };
    },
    routes: () => [
      { method: 'GET', path: METRICS_PATH, handle: async () => ({ status: 200, headers: { 'content-type': registry.contentType }, body: await registry.metrics() }) },
    ],
  };
}
