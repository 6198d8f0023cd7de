import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProfile, WEBHOOK_RETRY_DELAYS_MS, type Profile } from '../../contract/index.ts';
import { parsePlan } from '../plan.ts';
import { startReceiver, type Receiver } from '../receiver.ts';
import { stillAwaited } from '../schedule/watch.ts';
import { AttemptStore, type AttemptRow, type SessionRow } from '../store.ts';
import { envelope, sendWithRetries, type FakeSenderOptions } from '../testing/fake-sender.ts';
import { parseTolerance, validateAttempts } from './validate.ts';

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = 'whsec_validate_test';
const matched = { positionId: 'pos_1', userId: 'u1', type: 'lend', asset: 'USDC', amount: '100.00', rate: 0.05, maturity: '2027-01-01T00:00:00.000Z', status: 'active' };
// Fails every attempt of position.matched; other types are acknowledged at once.
const failAll = parsePlan({ name: 'fail matched', rules: [{ events: ['position.matched'], attempts: 'all', fault: 'status', config: { status: 503 } }] });
// Sender and receiver share one process on a shared 2-core box where, with the other suites
// running, exchanges arrive up to ~600 ms late; a 1 s floor absorbs that, and every wrong
// sender below misses by far more (or is caught by counting, not timing).
const TOL = { pct: 2, minMs: 1000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until the recording is observed to its end as `chaos schedule` decides it (every retry owed was due, plus the allowance), at most 10 s. */
async function observeToEnd(rx: Receiver): Promise<void> {
  const until = Date.now() + 10_000;
  const awaited = () => stillAwaited(rx.store.attempts(), rx.store.sessions(), { tolerance: TOL, allowMeasuredNoise: true, loopDelayMs: rx.loopDelayMs() }, { eventIds: [], pairs: [] }, Date.now());
  while (awaited().length && Date.now() < until) await sleep(50);
}

/** Runs one sender against a fresh receiver and validates what was recorded. */
async function run(name: string, timeScale: number, sender: Partial<FakeSenderOptions>, opts: { waitAfterMs?: number; toEnd?: boolean; events?: number } = {}) {
  const db = join(dir, `${name}.db`);
  const rx = await startReceiver({ secret, db, plan: failAll, timeScale });
  const events = Array.from({ length: opts.events ?? 1 }, (_, i) => envelope('position.matched', { ...matched, positionId: `pos_${name}_${i}` }));
  await Promise.all(events.map((e) => sendWithRetries(e, { url: rx.url, secret, timeScale, ...sender })));
  await sleep(opts.waitAfterMs ?? 0);
  if (opts.toEnd) await observeToEnd(rx);
  await rx.close();
  const store = new AttemptStore(db);
  const result = await validateAttempts(store.attempts(), store.sessions(), { tolerance: TOL, allowMeasuredNoise: true });
  store.close();
  return result;
}
const messages = (r: Awaited<ReturnType<typeof run>>) => r.checks.map((c) => c.message ?? '').join('\n');
const failed = (r: Awaited<ReturnType<typeof run>>) => r.checks.filter((c) => c.status === 'failed').map((c) => c.id);

describe.concurrent('validator against senders', () => {
  it('passes a correct sender whose every attempt fails (full schedule at time scale 36000)', async () => {
    const r = await run('correct', 36_000, {}, { events: 3, waitAfterMs: 100 });
    expect(failed(r), JSON.stringify(r.checks.filter((c) => c.status === 'failed'))).toEqual([]);
    expect(r.status).toBe('passed');
    expect(r.figures.deliveries).toBe(18);
    expect(r.timeline).toHaveLength(3);
    expect(r.timeline![0].observedMs).toHaveLength(6);
    expect(r.checks.find((c) => c.id === 'schedule.after-final-retry')!.notes[0]).toMatch(/no attempt after the failed fifth retry/);
  });

  it('catches a sender that stops after 4 retries', async () => {
    // Watched past the moment the fifth retry was due (24 h / 36000 = 2.4 s) plus the 1 s floor
    // (widened by the measured event-loop delay, as the validation widens it).
    const r = await run('four-retries', 36_000, { maxRetries: 4 }, { toEnd: true });
    expect(failed(r), messages(r)).toEqual(['schedule.retries-made']);
    expect(r.checks.find((c) => c.id === 'schedule.retries-made')!.message).toMatch(/expected retry 5 at \+\d+ ms \/ received none/);
  });

  it('catches a sender that retries 6 times', async () => {
    const r = await run('six-retries', 36_000, { maxRetries: 6, delaysMs: [...WEBHOOK_RETRY_DELAYS_MS, 60_000] });
    expect(failed(r)).toContain('schedule.retry-count');
    expect(r.checks.find((c) => c.id === 'schedule.retry-count')!.message).toMatch(/expected at most 5 retries \/ received 6/);
  });

  it('catches a 10-minute second delay (time scale 120: 5000 ms instead of 2500 ms)', async () => {
    const delaysMs = [60_000, 10 * 60_000, 30 * 60_000, 2 * 3_600_000, 24 * 3_600_000];
    // Two retries are enough to see the second delay; the rest of the schedule is left unjudged.
    const r = await run('ten-minutes', 120, { delaysMs, maxRetries: 2 });
    expect(failed(r), messages(r)).toEqual(['schedule.delays']);
    expect(r.checks.find((c) => c.id === 'schedule.delays')!.message).toMatch(/retry 2: expected a delay of 2500 ms ± 1000 ms \/ received \d{4,5} ms/);
  });

  it('catches a sender that changes the event id on retry', async () => {
    const r = await run('new-id', 36_000, { changeIdOnRetry: true, maxRetries: 2 });
    expect(failed(r)).toContain('schedule.same-id-and-body');
    expect(r.checks.find((c) => c.id === 'schedule.same-id-and-body')!.message).toMatch(/expected its retry to keep id evt_/);
  });

  it('names a retry under a new id as a changed id, not as a missing retry (matched by type and data)', async () => {
    const r = await run('new-id-end', 36_000, { changeIdOnRetry: true, maxRetries: 1 }, { toEnd: true });
    const made = r.checks.find((c) => c.id === 'schedule.retries-made')!;
    expect(made.status).toBe('failed');
    expect(made.message).toMatch(/^event evt_\S+ \(position\.matched\): expected retry 1 at \+\d+ ms with id evt_\S+ \/ received the same type and data under a new event id evt_\S+ at \+\d+ ms \(a changed id, not a missing retry\)/);
  });

  it('catches a sender that changes the body on retry', async () => {
    const r = await run('new-body', 36_000, { changeBodyOnRetry: true, maxRetries: 1 });
    expect(failed(r)).toContain('schedule.same-id-and-body');
  });
});

describe('validator details', () => {
  it('passes a sender whose event is acknowledged on the third attempt, and fails a retry after it', async () => {
    const db = join(dir, 'ack.db');
    const rx = await startReceiver({ secret, db, timeScale: 36_000, plan: parsePlan({ rules: [{ attempts: { from: 1, to: 2 }, fault: 'status', config: { status: 500 } }] }) });
    const ev = envelope('position.created', matched);
    const log = await sendWithRetries(ev, { url: rx.url, secret, timeScale: 36_000 });
    expect(log.map((a) => a.status)).toEqual([500, 500, 200]);
    await sleep(20); // the outcome of the last exchange is committed with the next batch
    const store = rx.store;
    let r = await validateAttempts(store.attempts(), store.sessions(), { tolerance: TOL });
    expect(r.status).toBe('passed');
    expect(r.timeline![0].message).toBe('acknowledged on attempt 3');
    // A sender that keeps going after the acknowledgement is caught.
    await sendWithRetries(ev, { url: rx.url, secret, timeScale: 36_000, maxRetries: 0 });
    await sleep(20);
    r = await validateAttempts(store.attempts(), store.sessions(), { tolerance: TOL });
    expect(r.checks.find((c) => c.id === 'schedule.no-attempt-after-success')!.status).toBe('failed');
    await rx.close();
  });

  it('fails a bad signature and an empty recording', async () => {
    const rx = await startReceiver({ secret, timeScale: 1 });
    await sendWithRetries(envelope('position.created', matched), { url: rx.url, secret: 'whsec_wrong', timeScale: 1_000_000, maxRetries: 0 });
    const r = await validateAttempts(rx.store.attempts(), rx.store.sessions(), { untilMs: Date.now() });
    expect(r.checks.find((c) => c.id === 'schedule.signature')!.message).toMatch(/expected a valid signature \/ received mismatch/);
    await rx.close();
    expect((await validateAttempts([], [])).checks.find((c) => c.id === 'schedule.deliveries-recorded')!.status).toBe('failed');
  });

  it('parses tolerances', () => {
    expect(parseTolerance('5%,10ms')).toEqual({ pct: 5, minMs: 10 });
    expect(parseTolerance('1s')).toEqual({ pct: 2, minMs: 1000 });
    expect(() => parseTolerance('lots')).toThrow(/invalid --tolerance/);
  });
});

describe('retry delay reference point (profile webhooks.retryDelayFrom)', () => {
  // One event whose attempts each take 30 s to fail; the sender counts its delays from each
  // attempt's start. Real time (scale 1), built as rows so the timing is exact.
  const rows = (): AttemptRow[] => {
    const out: AttemptRow[] = [];
    let start = 1_000_000;
    for (let k = 0; k <= WEBHOOK_RETRY_DELAYS_MS.length; k++) {
      out.push({
        seq: k + 1, session: 1, eventId: 'evt_slow', eventType: 'position.matched', attempt: k + 1, arrivalMs: start, endedMs: start + 30_000,
        bodySha256: 'a'.repeat(64), contentKey: 'k', subject: 'pos_1', bodyBytes: 100, sigOk: true, sigReason: null, fault: 'status', response: null, status: 503,
      });
      start += WEBHOOK_RETRY_DELAYS_MS[k] ?? 0;
    }
    return out;
  };
  const sessions: SessionRow[] = [{ id: 1, startedMs: 0, endedMs: 1_000_000 + 200_000_000, timeScale: 1, scheme: 't-v1-hmac-sha256', plan: '{}', loopDelayMaxMs: 0 }];
  const delaysFailed = async (profile?: Profile) => (await validateAttempts(rows(), sessions, { profile })).checks.find((c) => c.id === 'schedule.delays')!.status;

  it('judges a start-to-start sender wrong under the default (from the end) and right under attempt-start', async () => {
    expect(await delaysFailed()).toBe('failed');
    expect(await delaysFailed(parseProfile({ webhooks: { retryDelayFrom: 'attempt-start' } }))).toBe('passed');
  });
});
