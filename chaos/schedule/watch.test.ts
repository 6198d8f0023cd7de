import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProfile, routeOf, WEBHOOK_RETRY_DELAYS_MS } from '../../contract/index.ts';
import { runChaosSchedule } from './run.ts';
import { stillAwaited } from './watch.ts';
import type { AttemptRow } from '../store.ts';
import { envelope, sendWithRetries, type FakeSenderOptions } from '../testing/fake-sender.ts';

// chaos schedule stops watching once every caused event's schedule is observed to its end, and
// judges then; the whole scaled schedule is only its upper bound. Here against a target without
// sandbox controls (GET /sandbox/clock answers 404), so the run has only the receiver's
// observations and the target's positions to go on. The target is a test double whose sender
// runs at time scale 360 000 (the 24 h retry is 240 ms), so the bound is ~31 s, mostly the six
// 5 s answer windows that no fault here holds.
const SCALE = 360_000;
const TOL = { pct: 2, minMs: 1000 };
const failAll = { name: 'fail all', rules: [{ attempts: 'all' as const, fault: 'status', config: { status: 503 } }] };

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

/** A lending service without controls: POST /lend creates a position and sends position.created through its retry schedule. */
async function fakeTarget(sender: Partial<FakeSenderOptions>): Promise<string> {
  let hook: { url: string; secret: string } | undefined;
  let n = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const json = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      // The endpoint asked, through the contract's one router (the path under /v1).
      const path = (req.url ?? '/').replace('/v1', '');
      const id = routeOf(defaultProfile, req.method ?? 'GET', path, true)?.id;
      if (id === 'webhooks.create') {
        const b = JSON.parse(body) as { url: string; secret: string };
        hook = { url: b.url, secret: b.secret };
        return json(201, { webhookId: 'wh_1', url: b.url });
      }
      if (id === 'lend.create') {
        const positionId = `pos_${++n}`;
        const ev = envelope('position.created', { positionId, userId: 'u1', type: 'lend', asset: 'USDC', amount: '150.00', rate: 0.05, status: 'active' });
        // Sent in the background, as a service does after it answered.
        if (hook) sendWithRetries(ev, { url: hook.url, secret: hook.secret, timeScale: SCALE, ...sender }).catch((e: unknown) => console.error(e));
        return json(201, { positionId, status: 'active' });
      }
      if (id === 'position.get') return json(200, { positionId: decodeURIComponent(path.split('/').pop()!), status: 'active' });
      return json(404, { error: { code: 'not_found', message: `${req.method} ${req.url}` } });
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

const schedule = async (sender: Partial<FakeSenderOptions>) =>
  runChaosSchedule({ baseUrl: await fakeTarget(sender), apiKey: 'ck_test_watch', timeScale: SCALE, tolerance: TOL, plan: failAll });

describe('chaos schedule judges once the schedule is observed to its end (no sandbox controls)', () => {
  it('a correct sender: both events exhausted, judged PASS about 1 s after the fifth retries, long before the bound', async () => {
    const r = await schedule({});
    expect(r.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(r.status).toBe('passed');
    expect(r.figures).toMatchObject({ sandboxControls: 'no', observedToEnd: 'yes', eventsPending: 0, eventsExhausted: 2, positionsCreated: 2 });
    expect(r.figures.waitedMs).toBeLessThan(Number(r.figures.scheduleWaitMs) / 3);
    expect(r.checks.find((c) => c.id === 'schedule.after-final-retry')!.notes.join('\n')).toMatch(/no attempt after the failed fifth retry in \d{4,} ms/);
    expect(r.checks.find((c) => c.id === 'schedule.target-agrees')).toMatchObject({ status: 'skipped', message: expect.stringMatching(/no sandbox controls/) });
  });

  it('a sender that stops after four retries: watched until its fifth retry was due plus the allowance, then FAILED (not INCOMPLETE)', async () => {
    const r = await schedule({ maxRetries: 4 });
    expect(r.status).toBe('failed');
    expect(r.figures).toMatchObject({ observedToEnd: 'yes', eventsPending: 0 });
    expect(r.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['schedule.retries-made']);
    expect(r.checks.find((c) => c.id === 'schedule.retries-made')!.message).toMatch(/expected retry 5 at \+\d+ ms \/ received none by \+\d+ ms/);
    expect(r.figures.waitedMs).toBeLessThan(Number(r.figures.scheduleWaitMs) / 3);
  });
});

describe('stillAwaited', () => {
  const row = (attempt: number, arrivalMs: number, endedMs: number | null, status: number | null): AttemptRow => ({
    seq: attempt, session: 1, eventId: 'evt_1', eventType: 'position.matched', attempt, arrivalMs, endedMs, bodySha256: 'b', contentKey: 'c', subject: 'pos_1', bodyBytes: 10,
    sigOk: true, sigReason: null, fault: null, response: null, status,
  });
  const opts = { timeScale: 3600, tolerance: TOL };
  const d = WEBHOOK_RETRY_DELAYS_MS.map((x) => x / 3600);
  const none = { eventIds: [], pairs: [] };

  it('waits for caused events not yet delivered, and for an attempt still being answered', () => {
    expect(stillAwaited([], [], opts, { eventIds: ['evt_9'], pairs: [{ subject: 'pos_1', type: 'position.created' }] }, 0)).toEqual(['event evt_9: no delivery yet', 'position.created for pos_1: no delivery yet']);
    expect(stillAwaited([row(1, 0, null, null)], [], opts, none, 60_000)).toEqual(['event evt_1 (position.matched): attempt 1 still being answered']);
  });

  it('an acknowledged event ends when a retry after it would have been due, plus the allowance', () => {
    const rows = [row(1, 0, 10, 503), row(2, 10 + d[0], 20 + d[0], 200)];
    const end = 20 + d[0] + d[1] + 1000;
    expect(stillAwaited(rows, [], opts, none, end)).toHaveLength(1);
    expect(stillAwaited(rows, [], opts, none, end + 1)).toEqual([]);
  });

  it('a failed event ends when its next retry was due plus the allowance; an exhausted one the bound after its fifth retry', () => {
    const four = [row(1, 0, 1, 503)];
    for (let k = 1; k <= 4; k++) four.push(row(k + 1, four[k - 1].endedMs! + d[k - 1], four[k - 1].endedMs! + d[k - 1] + 1, 503));
    const due5 = four[4].endedMs! + d[4];
    expect(stillAwaited(four, [], opts, none, due5 + 1000)).toHaveLength(1);
    expect(stillAwaited(four, [], opts, none, due5 + 1001)).toEqual([]);
    const five = [...four, row(6, due5, due5 + 1, 503)];
    expect(stillAwaited(five, [], opts, none, due5 + 1001)).toHaveLength(1);
    expect(stillAwaited(five, [], opts, none, due5 + 1 + 1001)).toEqual([]);
  });
});
