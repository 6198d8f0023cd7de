// Webhook deliveries per second from the sandbox dispatcher to local node:http receivers,
// beside a baseline measured in the same run: plain undici POSTs of the same bodies at the
// same concurrency (the HTTP ceiling of this machine, with no outbox, signing or SQLite).
// Setup: a WAL SQLite file in a temp dir, 4 receivers (one subscription each), N events
// in the outbox at start, each delivered to all 4. The receivers run in a child process (as a
// partner's server would), so they do not take the sender's CPU.
// Run: node --import tsx bench/dispatcher.ts [events]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { defaultProfile } from '../contract/index.ts';
import { TestClock } from '../sandbox/engine/clock.ts';
import { Dispatcher } from '../sandbox/webhooks/dispatcher.ts';
import { appendOutboxEvent } from '../sandbox/store/outbox.ts';
import { addSubscription, outboxDb } from '../sandbox/webhooks/testing/testkit.ts';
import { syntheticData } from '../sandbox/webhooks/trigger.ts';

const EVENTS = Number(process.argv[2] ?? 5_000);
const ENDPOINTS = 4;
const PER_ENDPOINT = 8;
const TOTAL = EVENTS * ENDPOINTS;

// Plain JS so the child starts without a TypeScript loader: N servers that answer 200 and count.
const RECEIVER_JS = `
const http = require('node:http');
let count = 0;
const servers = [];
let listening = 0;
for (let i = 0; i < Number(process.argv[2]); i++) {
  const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { count++; res.writeHead(200).end('ok'); }); });
  s.keepAliveTimeout = 10000;
  servers.push(s);
  s.listen(0, '127.0.0.1', () => { if (++listening === servers.length) process.send({ ports: servers.map((x) => x.address().port) }); });
}
process.on('message', (m) => { if (m === 'count') process.send({ count }); if (m === 'exit') process.exit(0); });
`;

interface Receivers {
  urls: string[];
  count(): Promise<number>;
  close(): void;
}

async function receivers(dir: string): Promise<Receivers> {
  const file = join(dir, 'receiver.cjs');
  writeFileSync(file, RECEIVER_JS);
  const child: ChildProcess = fork(file, [String(ENDPOINTS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const { ports } = await next<{ ports: number[] }>();
  return {
    urls: ports.map((p) => `http://127.0.0.1:${p}/hook`),
    async count() {
      const reply = next<{ count: number }>();
      child.send('count');
      return (await reply).count;
    },
    close: () => child.send('exit'),
  };
}

async function baseline(dir: string, bodies: string[]): Promise<number> {
  const rs = await receivers(dir);
  const agent = new Agent({ connections: PER_ENDPOINT });
  const t0 = performance.now();
  await Promise.all(
    rs.urls.flatMap((url) =>
      Array.from({ length: PER_ENDPOINT }, async (_, w) => {
        for (let i = w; i < bodies.length; i += PER_ENDPOINT) {
          const res = await request(url, { method: 'POST', body: bodies[i], headers: { 'content-type': 'application/json' }, dispatcher: agent });
          await res.body.dump();
        }
      }),
    ),
  );
  const s = (performance.now() - t0) / 1000;
  await agent.close();
  if ((await rs.count()) !== TOTAL) throw new Error('baseline receivers missed requests');
  rs.close();
  return TOTAL / s;
}

/** `stubbed`: the sender answers 200 at once without HTTP, to show the dispatcher's own ceiling. */
async function dispatcher(dir: string, stubbed = false): Promise<{ rate: number }> {
  const db = outboxDb(join(dir, stubbed ? 'stub.db' : 'bench.db'));
  const clock = new TestClock();
  const rs = stubbed ? undefined : await receivers(dir);
  const urls = rs?.urls ?? Array.from({ length: ENDPOINTS }, (_, i) => `http://127.0.0.1:9/stub-${i}`);
  urls.forEach((url) => addSubscription(db, 'partner_a', url, ['position.matched']));
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) {
      appendOutboxEvent(db, 'partner_a', 'position.matched', syntheticData(defaultProfile, 'position.matched', `u${i}`, clock.now()), clock.now());
    }
  })();
  const send = stubbed ? async () => (await new Promise((r) => setImmediate(r)), { status: 200 }) : undefined;
  const d = new Dispatcher({ db, clock, profile: defaultProfile, maxPerEndpoint: PER_ENDPOINT, maxInFlight: PER_ENDPOINT * ENDPOINTS, send });
  const t0 = performance.now();
  d.start();
  while (d.stats().succeeded < TOTAL) await new Promise((r) => setTimeout(r, 5));
  const s = (performance.now() - t0) / 1000;
  const got = rs ? await rs.count() : TOTAL;
  if (got !== TOTAL) throw new Error(`receivers got ${got} of ${TOTAL}`);
  await d.stop();
  const pending = db.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state != 'succeeded'").pluck().get();
  if (pending !== 0) throw new Error(`${pending} deliveries not recorded as succeeded`);
  db.close();
  rs?.close();
  return { rate: TOTAL / s };
}

// Rounds alternate (baseline, dispatcher, baseline, dispatcher, ...) so that load from other
// processes on a shared machine falls on both alike; the ratio is taken per round pair, and the
// median reported. One uncounted round of each first warms the JIT and the connection pools.
const ROUNDS = 3;
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-bench-dispatcher-'));
try {
  console.log(`webhook dispatcher, ${EVENTS} events x ${ENDPOINTS} endpoints = ${TOTAL} deliveries, ${PER_ENDPOINT} connections per endpoint (node ${process.version})`);
  const ratios: number[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    const roundDir = mkdtempSync(join(dir, `round-${r}-`));
    const bodies = Array.from({ length: EVENTS }, (_, i) => JSON.stringify({ id: `evt_${i}`, type: 'position.matched', timestamp: new Date().toISOString(), data: syntheticData(defaultProfile, 'position.matched', `u${i}`, Date.now()) }));
    const b = await baseline(roundDir, bodies);
    const d = await dispatcher(roundDir);
    const stub = await dispatcher(roundDir, true);
    if (r === 0) continue; // warm-up
    ratios.push(d.rate / b);
    console.log(`round ${r}: baseline plain undici POSTs ${b.toFixed(0).padStart(6)} req/s; dispatcher (outbox, sign, SQLite) ${d.rate.toFixed(0).padStart(6)} deliveries/s = ${(d.rate / b).toFixed(2)}x baseline; same dispatcher, sender stubbed (no HTTP) ${stub.rate.toFixed(0).padStart(6)}/s`);
  }
  ratios.sort((a, b) => a - b);
  console.log(`dispatcher / baseline per round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
