import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../plan.ts';
import { startReceiver, type Receiver } from '../receiver.ts';
import { signWebhook } from '../../signing/signature.ts';
import { RECEIVER_FAULTS, faultNames, serveToxic, type ReceiverFault } from './index.ts';

// Each fault seen from the sender's side of a real socket. The deadline is shortened to
// 150 ms so that "after the deadline" faults take a fraction of a second.
const secret = 'whsec_faults';
const DEADLINE = 150;
let rx: Receiver;
const rules = [
  { name: 'timeout', fault: 'timeout', config: { holdMs: 300 } },
  { name: 'slow-headers', fault: 'slow-headers', config: { delayMs: 200 } },
  { name: 'slow-body', fault: 'slow-body', config: { totalMs: 200, chunks: 4 } },
  { name: 'status-502', fault: 'status', config: { status: 502 } },
  { name: 'status-429', fault: 'status', config: { status: 429, retryAfterSeconds: 7 } },
  { name: 'status-301', fault: 'status', config: { status: 301 } },
  { name: 'reset', fault: 'reset', config: {} },
  { name: 'close', fault: 'close', config: {} },
  { name: 'late-200', fault: 'late-200', config: { lateByMs: 100 } },
  { name: 'garbage-200', fault: 'garbage-200', config: { bytes: 64 } },
];

beforeAll(async () => {
  // One event type per rule would need more types than exist, so rules select by attempt
  // number instead: attempt n of an event gets rule n.
  rx = await startReceiver({ secret, deadlineMs: DEADLINE, plan: parsePlan({ rules: rules.map((r, i) => ({ ...r, attempts: [i + 1] })) }) });
});
afterAll(() => rx.close());

interface Seen {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: Buffer;
  error?: string;
  ms: number;
}

function deliver(body: string): Promise<Seen> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(rx.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': signWebhook(body, secret) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
      res.on('error', (e) => resolve({ status: res.statusCode, error: (e as NodeJS.ErrnoException).code ?? e.message, ms: performance.now() - t0 }));
    });
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message, ms: performance.now() - t0 }));
    req.end(body);
  });
}

describe('faults', () => {
  it('registers at least the eight required faults', () => {
    expect(faultNames()).toEqual(expect.arrayContaining(['timeout', 'slow-headers', 'slow-body', 'status', 'reset', 'close', 'late-200', 'garbage-200']));
  });

  it('each fault does what it says, on the attempt its rule selects', async () => {
    const body = JSON.stringify({ id: 'evt_faults', type: 'position.created', timestamp: new Date().toISOString(), data: {} });
    const seen: Record<string, Seen> = {};
    for (const r of rules) seen[r.name] = await deliver(body);
    expect(seen.timeout.status).toBeUndefined();
    expect(seen.timeout.error).toBe('ECONNRESET');
    expect(seen.timeout.ms).toBeGreaterThanOrEqual(290);
    expect(seen['slow-headers']).toMatchObject({ status: 200 });
    expect(seen['slow-headers'].ms).toBeGreaterThanOrEqual(190);
    expect(seen['slow-body'].status).toBe(200);
    expect(seen['slow-body'].ms).toBeGreaterThanOrEqual(190);
    expect(JSON.parse(seen['slow-body'].body!.toString())).toMatchObject({ received: true });
    expect(seen['status-502'].status).toBe(502);
    expect(seen['status-429']).toMatchObject({ status: 429, headers: expect.objectContaining({ 'retry-after': '7' }) });
    expect(seen['status-301']).toMatchObject({ status: 301, headers: expect.objectContaining({ location: '/moved' }) });
    expect(seen.reset.error).toBe('ECONNRESET');
    expect(seen.close.status).toBeUndefined();
    expect(seen.close.error).toMatch(/ECONNRESET|socket hang up/);
    expect(seen['late-200'].status).toBe(200);
    expect(seen['late-200'].ms).toBeGreaterThanOrEqual(DEADLINE + 90);
    expect(seen['garbage-200'].status).toBe(200);
    expect(() => JSON.parse(seen['garbage-200'].body!.toString('latin1'))).toThrow();

    await new Promise((r) => setTimeout(r, 30));
    const rows = rx.store.attempts();
    expect(rows.map((a) => a.attempt)).toEqual(rules.map((_, i) => i + 1));
    expect(rows.map((a) => a.fault?.split(' ')[0])).toEqual(rules.map((r) => r.fault));
    expect(rows.find((a) => a.attempt === 1)!.response).toMatch(/^timeout/);
    expect(rows.find((a) => a.attempt === 7)).toMatchObject({ status: null, response: 'connection reset' });
    expect(rows.find((a) => a.attempt === 9)).toMatchObject({ status: 200, response: expect.stringMatching(/late/) });
  });
});

describe('held faults write their answer ahead', () => {
  // A crash between a held answer leaving and the fault returning must not lose the status
  // the sender saw, so the door hands each held fault's answer to `answering` before the status line goes out.
  for (const [name, config] of [['slow-headers', { delayMs: 50, status: 202 }], ['late-200', { lateByMs: 10 }], ['slow-body', { totalMs: 40, chunks: 2, status: 201 }]] as const) {
    it(`${name} calls answering before any byte of its answer`, async () => {
      const calls: Array<{ status: number | null; headersSent: boolean }> = [];
      const fault: ReceiverFault = RECEIVER_FAULTS.get(name);
      const server = createServer((req, res) => {
        serveToxic(fault.install(fault.config.parse(config), { deadlineMs: 50 }), req, res, {
          body: Buffer.from('{}'),
          answering: async (o) => void calls.push({ status: o.status, headersSent: res.headersSent }),
        }).catch((e: unknown) => res.destroy(e as Error));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST', body: '{}' });
        await r.text();
        expect(calls).toEqual([{ status: r.status, headersSent: false }]);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  }
});
