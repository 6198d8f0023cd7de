// Webhook deliveries per second from the sandbox dispatcher to local node:http receivers,
// beside a baseline measured in the same run: plain undici POSTs of the same bodies at the
// same concurrency (the HTTP ceiling of this machine, with no outbox, signing or SQLite).
// Setup: a WAL SQLite file in a temp dir, 4 receivers (one subscription each), N events
// in the outbox at start, each delivered to all 4; receivers run in this same process.
// Run: node --import tsx bench/dispatcher.ts [events]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { defaultProfile } from '../contract/index.ts';
import { TestClock } from '../sandbox/clock.ts';
import { Dispatcher } from '../sandbox/webhooks/dispatcher.ts';
import { insertOutboxEvent } from '../sandbox/webhooks/outbox.ts';
import { addSubscription, outboxDb, startReceiver, type Receiver } from '../sandbox/webhooks/testkit.ts';
import { syntheticData } from '../sandbox/webhooks/trigger.ts';

const EVENTS = Number(process.argv[2] ?? 5_000);
const ENDPOINTS = 4;
const PER_ENDPOINT = 8;
const TOTAL = EVENTS * ENDPOINTS;

async function receivers(): Promise<Receiver[]> {
  return Promise.all(Array.from({ length: ENDPOINTS }, () => startReceiver(() => ({ status: 200 }), { record: false })));
}
const countOf = (rs: Receiver[]) => rs.reduce((n, r) => n + (r as unknown as { count: number }).count, 0);

async function baseline(bodies: string[]): Promise<number> {
  const rs = await receivers();
  const agent = new Agent({ connections: PER_ENDPOINT });
  const t0 = performance.now();
  await Promise.all(
    rs.flatMap((r) =>
      Array.from({ length: PER_ENDPOINT }, async (_, w) => {
        for (let i = w; i < bodies.length; i += PER_ENDPOINT) {
          const res = await request(r.url, { method: 'POST', body: bodies[i], headers: { 'content-type': 'application/json' }, dispatcher: agent });
          await res.body.dump();
        }
      }),
    ),
  );
  const s = (performance.now() - t0) / 1000;
  await agent.close();
  await Promise.all(rs.map((r) => r.close()));
  return TOTAL / s;
}

async function dispatcher(dir: string): Promise<{ rate: number; bodies: string[] }> {
  const db = outboxDb(join(dir, 'bench.db'));
  const clock = new TestClock();
  const rs = await receivers();
  rs.forEach((r) => addSubscription(db, 'partner_a', r.url, ['position.matched']));
  const bodies: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) {
      bodies.push(insertOutboxEvent(db, 'partner_a', 'position.matched', syntheticData(defaultProfile, 'position.matched', `u${i}`, clock.now()), clock.now()).payload);
    }
  })();
  const d = new Dispatcher({ db, clock, profile: defaultProfile, maxPerEndpoint: PER_ENDPOINT, maxInFlight: PER_ENDPOINT * ENDPOINTS });
  const t0 = performance.now();
  d.start();
  while (d.stats().succeeded < TOTAL) await new Promise((r) => setTimeout(r, 5));
  const s = (performance.now() - t0) / 1000;
  if (countOf(rs) !== TOTAL) throw new Error(`receivers got ${countOf(rs)} of ${TOTAL}`);
  await d.stop();
  const pending = db.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state != 'succeeded'").pluck().get();
  if (pending !== 0) throw new Error(`${pending} deliveries not recorded as succeeded`);
  db.close();
  await Promise.all(rs.map((r) => r.close()));
  return { rate: TOTAL / s, bodies };
}

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-bench-dispatcher-'));
try {
  const d = await dispatcher(dir);
  const b = await baseline(d.bodies);
  console.log(`webhook dispatcher, ${EVENTS} events x ${ENDPOINTS} endpoints = ${TOTAL} deliveries, ${PER_ENDPOINT} connections per endpoint (node ${process.version})`);
  console.log(`baseline: plain undici POSTs      ${b.toFixed(0).padStart(7)} req/s         1.00x`);
  console.log(`dispatcher (outbox, sign, SQLite) ${d.rate.toFixed(0).padStart(7)} deliveries/s  ${(d.rate / b).toFixed(2)}x baseline`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
