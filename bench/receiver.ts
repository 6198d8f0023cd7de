// Deliveries per second recorded by the chaos receiver (signature verified, attempt numbered,
// committed to a WAL SQLite file before the answer), beside a baseline measured in the same
// run: a bare node:http server that reads the same bodies and answers 200 (no verification,
// no SQLite) — the HTTP ceiling of this machine. The load generator runs in a child process
// so it does not take the servers' CPU; it gets pre-signed bodies over IPC and is plain JS
// so it starts without a TypeScript loader.
// Rounds alternate baseline and receiver and the medians are compared, because on a shared
// machine the load of other processes moves both figures by 2-3x from one minute to the next.
// Run: node --import tsx bench/receiver.ts [deliveries] [concurrency] [rounds]

import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReceiver } from '../chaos/receiver.ts';
import { makeEvent } from '../chaos/certify/events.ts';
import { signWebhook } from '../signing/signature.ts';
import { AttemptStore } from '../chaos/store.ts';
import { EVENT_TYPES } from '../contract/index.ts';

const N = Number(process.argv[2] ?? 20_000);
const C = Number(process.argv[3] ?? 64);
const ROUNDS = Number(process.argv[4] ?? 3);
const SECRET = 'whsec_bench_receiver_0123456789abcdef';

const GENERATOR_JS = `
const http = require('node:http');
process.on('message', ({ url, deliveries, concurrency }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const u = new URL(url);
  let next = 0, done = 0, ok = 0;
  const t0 = process.hrtime.bigint();
  const one = () => {
    if (next >= deliveries.length) return;
    const d = deliveries[next++];
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(d.body), 'x-service-signature': d.sig } }, (res) => {
      res.resume();
      res.on('end', () => { if (res.statusCode === 200) ok++; finish(); });
    });
    req.on('error', finish);
    req.end(d.body);
  };
  const finish = () => {
    if (++done === deliveries.length) {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      agent.destroy();
      process.send({ ms, ok });
    } else one();
  };
  for (let i = 0; i < concurrency; i++) one();
});
`;

async function drive(dir: string, url: string, deliveries: Array<{ body: string; sig: string }>): Promise<{ ms: number; ok: number }> {
  const file = join(dir, 'generator.cjs');
  writeFileSync(file, GENERATOR_JS);
  const child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    return await new Promise((resolve, reject) => {
      child.once('message', (m) => resolve(m as { ms: number; ok: number }));
      child.once('exit', (code) => reject(new Error(`generator exited ${code}`)));
      child.send({ url, deliveries, concurrency: C });
    });
  } finally {
    child.kill();
  }
}

function makeDeliveries(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const ev = makeEvent(EVENT_TYPES[i % EVENT_TYPES.length]);
    ev.id = `evt_${randomUUID()}`;
    const body = JSON.stringify(ev);
    return { body, sig: signWebhook(body, SECRET) };
  });
}

async function bare(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => (server.closeAllConnections(), new Promise<void>((r) => server.close(() => r()))),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-bench-receiver-'));
try {
  const warm = makeDeliveries(Math.min(2_000, N));
  const b = await bare();
  const db = join(dir, 'receiver.db');
  const rx = await startReceiver({ secret: SECRET, db });
  await drive(dir, b.url, warm);
  await drive(dir, rx.url, warm);
  const rate = (r: { ms: number }) => Math.round((N / r.ms) * 1000);
  const baseRates: number[] = [];
  const recvRates: number[] = [];
  let mismatch = false;
  for (let round = 1; round <= ROUNDS; round++) {
    const deliveries = makeDeliveries(N);
    const base = await drive(dir, b.url, deliveries);
    const before = rx.count();
    const recv = await drive(dir, rx.url, deliveries);
    const recorded = rx.count() - before;
    if (base.ok !== N || recv.ok !== N || recorded !== N) mismatch = true;
    baseRates.push(rate(base));
    recvRates.push(rate(recv));
    console.log(`round ${round}: baseline ${rate(base).toLocaleString('en')}/s, receiver ${rate(recv).toLocaleString('en')}/s (${recv.ok} answered 200, ${recorded} recorded)`);
  }
  await b.close();
  await rx.close();
  const store = new AttemptStore(db);
  const rows = store.attempts().length;
  store.close();

  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  console.log(`deliveries: ${N} per round, ${ROUNDS} rounds, concurrency ${C}`);
  console.log(`baseline bare node:http : ${median(baseRates).toLocaleString('en')} deliveries/s (median)`);
  console.log(`chaos receiver          : ${median(recvRates).toLocaleString('en')} deliveries/s recorded (median)`);
  console.log(`rows in SQLite after close: ${rows} (warm-up ${warm.length} + ${ROUNDS} x ${N})`);
  console.log(`ratio receiver / baseline (medians): ${(median(recvRates) / median(baseRates)).toFixed(2)}`);
  if (mismatch || rows !== warm.length + ROUNDS * N) {
    console.error('MISMATCH: not every delivery was answered 200 and recorded');
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
