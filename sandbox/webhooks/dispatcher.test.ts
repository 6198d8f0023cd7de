import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_TYPES, SIGNATURE_HEADER, WEBHOOK_RETRY_DELAYS_MS, defaultProfile, eventEnvelope, parseProfile, shapes, type Profile } from '../../contract/index.ts';
import { verifyWebhook } from '../../signing/signature.ts';
import { TestClock } from '../engine/clock.ts';
import { eventAttempts } from './attempts.ts';
import { Dispatcher, type DispatcherOptions } from './dispatcher.ts';
import { appendOutboxEvent } from '../store/outbox.ts';
import { generateSecret, SubscriptionStore } from './subscriptions.ts';
import { addSubscription, outboxDb, startReceiver, type Answer, type Receiver } from './testing/testkit.ts';
import { syntheticData } from './trigger.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiver(answer?: Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

function dispatcher(opts: Omit<DispatcherOptions, 'profile'> & { profile?: Profile }): Dispatcher {
  const d = new Dispatcher({ profile: defaultProfile, pollMs: 5, ...opts });
  d.start();
  cleanups.push(() => d.stop());
  return d;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook dispatcher', () => {
  describe.each(['t-v1-hmac-sha256', 'hmac-sha256-hex', 'standard-webhooks'] as const)('with signature scheme %s', (scheme) => {
    it('delivers each event type once, as the stored envelope bytes, signed with the subscription secret', async () => {
      const profile = parseProfile({ signature: { scheme } });
      const db = outboxDb();
      const clock = new TestClock({ timeScale: 3600 });
      const rx = await receiver();
      const sub = addSubscription(db, 'partner_a', rx.url, EVENT_TYPES);
      const sent = EVENT_TYPES.map((t) => appendOutboxEvent(db, 'partner_a', t, syntheticData(profile, t, 'u1', clock.now()), clock.now()));
      dispatcher({ db, clock, profile });
      await rx.waitFor(EVENT_TYPES.length);
      await sleep(50);
      expect(rx.received).toHaveLength(EVENT_TYPES.length);
      for (const ev of sent) {
        const got = rx.received.find((r) => r.body === ev.payload);
        expect(got, `${ev.type} arrives byte for byte`).toBeDefined();
        const verdict = verifyWebhook(got!.body, got!.headers, sub.secret, { scheme });
        expect(verdict.ok, `${ev.type} signature verifies`).toBe(true);
        expect(verifyWebhook(got!.body, got!.headers, generateSecret(), { scheme })).toMatchObject({ ok: false, reason: 'mismatch' });
        expect(got!.headers[SIGNATURE_HEADER], 'the spec header is there under every scheme').toBeTruthy();
        if (scheme === 'standard-webhooks') expect(got!.headers['webhook-id'], 'webhook-id is the event id').toBe(ev.id);
        const env = eventEnvelope.parse(JSON.parse(got!.body));
        expect(env.id).toBe(ev.id);
        expect(shapes.eventDataShapes[ev.type].safeParse(env.data).success, `${ev.type} data matches its shape`).toBe(true);
        expect(got!.headers['content-type']).toBe('application/json');
      }
      // The outcome is committed after the answer is read: polled (vi.waitFor), not slept for.
      await vi.waitFor(() => expect(eventAttempts(db, 'partner_a', sent[0].id)).toMatchObject({ state: 'delivered', attempts: [{ attempt: 1, outcome: 'succeeded', status: 200 }] }), { timeout: 2_000, interval: 10 });
    });
  });

  it('retries a receiver that always fails exactly 5 times at 1m/5m/30m/2h/24h scaled (±2 % or ±50 ms), then stops', async () => {
    const scale = 86_400;
    const db = outboxDb();
    const clock = new TestClock({ timeScale: scale });
    const rx = await receiver(() => ({ status: 500 }));
    addSubscription(db, 'partner_a', rx.url, ['position.matched']);
    const ev = appendOutboxEvent(db, 'partner_a', 'position.matched', syntheticData(defaultProfile, 'position.matched', 'u1', clock.now()), clock.now());
    dispatcher({ db, clock });
    await rx.waitFor(6, 5_000);
    // Nothing after the 5th retry: wait well past where a 6th would be (the last gap is ~1000 ms).
    await sleep(1_500);
    expect(rx.received).toHaveLength(6);
    const gaps = rx.received.slice(1).map((r, i) => r.at - rx.received[i].at);
    WEBHOOK_RETRY_DELAYS_MS.forEach((delay, i) => {
      const expected = delay / scale;
      const tolerance = Math.max(expected * 0.02, 50);
      expect(Math.abs(gaps[i] - expected), `retry ${i + 1}: gap ${gaps[i].toFixed(1)} ms, expected ${expected.toFixed(1)} ms`).toBeLessThanOrEqual(tolerance);
    });
    // Duplicates keep one id: every attempt carries the same envelope.
    expect(new Set(rx.received.map((r) => JSON.parse(r.body).id))).toEqual(new Set([ev.id]));
    const view = eventAttempts(db, 'partner_a', ev.id)!;
    expect(view.state).toBe('failed');
    expect(view.attempts.map((a) => [a.attempt, a.outcome, a.status])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 'failed', 500]));
    // Each retry was scheduled its delay after the previous attempt (business time).
    for (let i = 1; i < 6; i++) {
      const gap = Date.parse(view.attempts[i].scheduledAt) - Date.parse(view.attempts[i - 1].sentAt!);
      expect(gap).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[i - 1]);
    }
  });

  it('stops retrying once a retry succeeds, keeping the event id', async () => {
    const db = outboxDb();
    const clock = new TestClock({ timeScale: 86_400 });
    const rx = await receiver((_, n) => ({ status: n <= 2 ? 503 : 204 }));
    addSubscription(db, 'partner_a', rx.url, ['position.created']);
    const ev = appendOutboxEvent(db, 'partner_a', 'position.created', { positionId: 'p1' }, clock.now());
    dispatcher({ db, clock });
    await rx.waitFor(3);
    await sleep(200);
    expect(rx.received.map((r) => JSON.parse(r.body).id)).toEqual([ev.id, ev.id, ev.id]);
    expect(eventAttempts(db, 'partner_a', ev.id)).toMatchObject({ state: 'delivered' });
  });

  it('measures a retry delay from the failed attempt\'s end, or from its start under that profile', async () => {
    for (const [from, expected] of [['attempt-end', 700], ['attempt-start', 400]] as const) {
      const db = outboxDb();
      const clock = new TestClock();
      // The first attempt takes 300 ms to fail; the retry comes 400 ms after its end or its start.
      const rx = await receiver((_, n) => ({ status: n === 1 ? 503 : 200, delayMs: n === 1 ? 300 : 0 }));
      addSubscription(db, 'partner_a', rx.url, ['position.created']);
      const ev = appendOutboxEvent(db, 'partner_a', 'position.created', {}, clock.now());
      dispatcher({ db, clock, profile: parseProfile({ webhooks: { retryDelayFrom: from } }), retryDelaysMs: [400, 400, 400, 400, 400] });
      await rx.waitFor(2);
      const [first, second] = eventAttempts(db, 'partner_a', ev.id)!.attempts;
      const gap = Date.parse(second!.scheduledAt) - Date.parse(first!.sentAt!);
      expect(gap, from).toBeGreaterThanOrEqual(expected);
      expect(gap, from).toBeLessThan(expected + 150);
    }
  });

  it('counts only 2xx as success (or only 200 under that profile), and a redirect as a failure', async () => {
    for (const [profile, status, ok] of [
      [defaultProfile, 204, true],
      [defaultProfile, 302, false],
      [parseProfile({ webhooks: { successStatuses: '200' } }), 204, false],
    ] as const) {
      const db = outboxDb();
      const clock = new TestClock();
      const rx = await receiver(() => ({ status }));
      addSubscription(db, 'partner_a', rx.url, ['position.created']);
      const ev = appendOutboxEvent(db, 'partner_a', 'position.created', {}, clock.now());
      dispatcher({ db, clock, profile });
      await rx.waitFor(1);
      await vi.waitFor(() => expect(eventAttempts(db, 'partner_a', ev.id)!.attempts[0].outcome, `status ${status}`).toBe(ok ? 'succeeded' : 'failed'), { timeout: 2_000, interval: 10 });
    }
  });

  it('fails an attempt that gets no answer within the deadline', async () => {
    const db = outboxDb();
    const clock = new TestClock();
    const rx = await receiver(() => 'hang');
    addSubscription(db, 'partner_a', rx.url, ['position.created']);
    const ev = appendOutboxEvent(db, 'partner_a', 'position.created', {}, clock.now());
    dispatcher({ db, clock, timeoutMs: 150 });
    await rx.waitFor(1);
    await vi.waitFor(() => {
      const a = eventAttempts(db, 'partner_a', ev.id)!;
      expect(a.attempts[0]).toMatchObject({ outcome: 'failed', status: null, error: 'no answer within 150 ms' });
      expect(a.attempts[1]).toMatchObject({ attempt: 2, outcome: 'pending' });
    }, { timeout: 2_000, interval: 10 });
  });

  it('sends only the types a subscription wants, only to its own partner, and nothing older than the subscription', async () => {
    const db = outboxDb();
    const clock = new TestClock();
    const rx = await receiver();
    appendOutboxEvent(db, 'partner_a', 'position.created', { n: 'before' }, clock.now());
    addSubscription(db, 'partner_a', rx.url, ['position.matched'], { afterSeq: 1 });
    appendOutboxEvent(db, 'partner_a', 'position.created', { n: 'unwanted type' }, clock.now());
    appendOutboxEvent(db, 'partner_b', 'position.matched', { n: 'other partner' }, clock.now());
    const wanted = appendOutboxEvent(db, 'partner_a', 'position.matched', { n: 'wanted' }, clock.now());
    const d = dispatcher({ db, clock });
    await rx.waitFor(1);
    await sleep(100);
    expect(rx.received.map((r) => JSON.parse(r.body).id)).toEqual([wanted.id]);
    expect(d.stats().succeeded).toBe(1);
  });

  it('keeps a slow receiver from holding up the others', async () => {
    const db = outboxDb();
    const clock = new TestClock();
    const slow = await receiver(() => ({ status: 200, delayMs: 1_500 }));
    const fast = await receiver();
    addSubscription(db, 'partner_a', slow.url, ['position.created']);
    addSubscription(db, 'partner_b', fast.url, ['position.created']);
    for (let i = 0; i < 20; i++) appendOutboxEvent(db, 'partner_a', 'position.created', { i }, clock.now());
    for (let i = 0; i < 20; i++) appendOutboxEvent(db, 'partner_b', 'position.created', { i }, clock.now());
    const d = dispatcher({ db, clock, maxInFlight: 4, maxPerEndpoint: 2 });
    const t0 = performance.now();
    await fast.waitFor(20, 1_400);
    expect(performance.now() - t0).toBeLessThan(1_400);
    // The slow one was never given more than its share of the slots.
    expect(slow.received.length).toBeLessThanOrEqual(2);
    expect(d.stats().inFlight).toBeLessThanOrEqual(4);
  });

  it('sends nothing more to a subscription once it is deleted, read-ahead rows included', async () => {
    const db = outboxDb();
    const clock = new TestClock();
    const rx = await receiver(() => ({ status: 200, delayMs: 150 }));
    const sub = addSubscription(db, 'partner_a', rx.url, ['position.created']);
    for (let i = 0; i < 20; i++) appendOutboxEvent(db, 'partner_a', 'position.created', { i }, clock.now());
    const d = dispatcher({ db, clock, maxPerEndpoint: 2 });
    await rx.waitFor(2);
    expect(new SubscriptionStore(db).delete('partner_a', sub.id, clock.now())).toBe(true);
    d.forgetSubscription(sub.id);
    await sleep(500);
    expect(rx.received).toHaveLength(2);
    const states = db.prepare('SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state ORDER BY state').all();
    expect(states).toEqual([{ state: 'cancelled', n: 18 }, { state: 'succeeded', n: 2 }]);
  });

  it.each([
    ['drop', 0],
    ['disable-subscription', 6],
  ] as const)('after the final retry applies afterFinalRetry=%s', async (mode, attemptsLeft) => {
    const profile = parseProfile({ webhooks: { afterFinalRetry: mode } });
    const db = outboxDb();
    const clock = new TestClock();
    const rx = await receiver(() => ({ status: 500 }));
    const sub = addSubscription(db, 'partner_a', rx.url, ['position.created']);
    const ev = appendOutboxEvent(db, 'partner_a', 'position.created', {}, clock.now());
    dispatcher({ db, clock, profile, retryDelaysMs: [1, 1, 1, 1, 1] });
    await rx.waitFor(6);
    await sleep(100);
    expect(rx.received).toHaveLength(6);
    expect(eventAttempts(db, 'partner_a', ev.id)!.attempts).toHaveLength(attemptsLeft);
    const disabled = db.prepare('SELECT disabled_at_ms FROM webhook_subscriptions WHERE id = ?').pluck().get(sub.id);
    expect(disabled !== null).toBe(mode === 'disable-subscription');
  });

  it('resumes pending retries on schedule after a restart on the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendcheck-wh-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'sandbox.db');
    let db = outboxDb(file);
    let clock = new TestClock({ timeScale: 600, startMs: 1_700_000_000_000 });
    const failing = await receiver(() => ({ status: 500 }));
    addSubscription(db, 'partner_a', failing.url, ['position.created'], { id: 'wh_1' });
    const ev = appendOutboxEvent(db, 'partner_a', 'position.created', {}, clock.now());
    const first = new Dispatcher({ db, clock, profile: defaultProfile, pollMs: 5 });
    first.start();
    await failing.waitFor(1);
    await vi.waitFor(() => expect(eventAttempts(db, 'partner_a', ev.id)!.attempts[0].outcome).toBe('failed'), { timeout: 2_000, interval: 5 });
    await first.stop();
    const failedAt = clock.now();
    db.close();
    // The first retry is due 60 s of business time after the failure: 100 ms real at scale 600.
    const ok = await receiver();
    db = outboxDb(file);
    cleanups.push(() => db.close());
    db.prepare('UPDATE webhook_subscriptions SET url = ?').run(ok.url);
    clock = new TestClock({ timeScale: 600, startMs: failedAt });
    const t0 = performance.now();
    dispatcher({ db, clock });
    await ok.waitFor(1);
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThan(100 - 50);
    expect(waited).toBeLessThan(100 + 50);
    expect(JSON.parse(ok.received[0].body).id).toBe(ev.id);
    await vi.waitFor(() => expect(eventAttempts(db, 'partner_a', ev.id)!.attempts.map((a) => a.outcome)).toEqual(['failed', 'succeeded']), { timeout: 2_000, interval: 5 });
  });
});
