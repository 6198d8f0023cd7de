import type BetterSqlite3 from 'better-sqlite3';
import { setMaxListeners } from 'node:events';
import { isAckStatus, SIGNATURE_HEADER, WEBHOOK_RESPONSE_DEADLINE_MS, WEBHOOK_RETRY_DELAYS_MS, type Profile } from '../../contract/index.ts';
import { signWebhookHeaders } from '../../signing/signature.ts';
import type { Clock } from '../engine/clock.ts';
import { migrateWebhooks } from '../store/webhook-schema.ts';
import { httpSender, type AttemptResult, type Sender } from './sender.ts';
import { dispatcherQueries } from './dispatcher-queries.ts';
import { subscribed, type FanOutSub, type HookFaultEffects } from './faults/types.ts';
import type { WireFaults } from './toxic-door.ts';

// Reads the transactional outbox by seq and delivers each event to every subscription of
// its partner that wants the type. All durable state is in SQLite (cursor, deliveries with
// their next attempt time in business ms, attempts), so after a crash the next start picks
// up every pending delivery on its schedule; an attempt that was in flight at the crash is
// simply sent again with the same event id (at-least-once, as part 6 rule 2 allows).
//
// Concurrency: at most maxInFlight attempts overall and maxPerEndpoint per subscription,
// chosen per endpoint each round, so a slow receiver only ever holds its own slots. 32 per
// subscription, not 8: at 125 events/s per subscription a window of 8 is full as soon as answers
// take 64 ms, and deliveries then queue behind it (matching load at 500 orders/s, 4 partners:
// time-to-match p99 28–67 ms with 32 against 100–430 ms with 8, runs interleaved).

export interface DispatcherOptions {
  db: BetterSqlite3.Database;
  clock: Clock;
  profile: Profile;
  /** Sends one attempt; defaults to an undici sender with the 5 s deadline. */
  send?: Sender;
  maxInFlight?: number;
  maxPerEndpoint?: number;
  /** Real ms between looks at the outbox for new events. */
  pollMs?: number;
  timeoutMs?: number;
  /** Wall-clock ms for the signature's timestamp (receivers check it against real time). */
  wallNow?: () => number;
  /** Business ms before the 1st..nth retry; the spec's schedule unless a test shortens it. */
  retryDelaysMs?: readonly number[];
  /** Deliberate bugs of the sender's logic (faults/): only tests and `--fault` give any. */
  faults?: HookFaultEffects;
  /** Deliberate bugs on the sender's wire, its toxics behind their door (toxic-door.ts): likewise. */
  wire?: WireFaults;
}

interface DueRow {
  id: number;
  event_id: string;
  webhook_id: string;
  attempts: number;
  next_at_ms: number;
  url: string;
  secret: string;
  payload: string;
}

interface Completion {
  row: DueRow;
  sentAt: number;
  doneAt: number;
  result: AttemptResult;
  /** Real ms the attempt took. */
  latencyMs: number;
  signature: string;
}

export interface DispatcherStats {
  inFlight: number;
  succeeded: number;
  failedAttempts: number;
  gaveUp: number;
}

const FANOUT_BATCH = 1000;
const PREFETCH = 64;

export class Dispatcher {
  private readonly db: BetterSqlite3.Database;
  private readonly clock: Clock;
  private readonly profile: Profile;
  private readonly send: Sender;
  private readonly closeSender: () => Promise<void>;
  private readonly maxInFlight: number;
  private readonly maxPerEndpoint: number;
  private readonly pollMs: number;
  private readonly wallNow: () => number;
  private readonly retryDelays: readonly number[];

  /** Deliveries sent and not yet recorded (still pending in SQLite, so never read again). */
  private readonly inflight = new Map<number, Promise<void>>();
  /** Of those, per subscription: how many are held (sending or awaiting the record). */
  private readonly held = new Map<string, number>();
  /** Attempts on the wire, overall and per subscription: the concurrency bounds apply to these. */
  private sending = 0;
  private readonly perEndpoint = new Map<string, number>();
  /** Due rows read ahead, per subscription. */
  private readonly ready = new Map<string, DueRow[]>();
  private completions: Completion[] = [];
  private timer: NodeJS.Timeout | undefined;
  private tickQueued = false;
  private batchTimer: NodeJS.Timeout | undefined;
  private rotation = 0;
  private running = false;
  private abort = new AbortController();
  private unsubscribeClock: (() => void) | undefined;
  private readonly counters = { succeeded: 0, failedAttempts: 0, gaveUp: 0 };

  private readonly q: ReturnType<typeof dispatcherQueries>;
  private readonly faults: HookFaultEffects;
  private readonly wire: WireFaults | undefined;

  constructor(opts: DispatcherOptions) {
    this.db = opts.db;
    this.clock = opts.clock;
    this.profile = opts.profile;
    this.maxInFlight = opts.maxInFlight ?? 64;
    this.maxPerEndpoint = opts.maxPerEndpoint ?? 32;
    this.pollMs = opts.pollMs ?? 25;
    this.wallNow = opts.wallNow ?? Date.now;
    this.faults = opts.faults ?? {};
    this.wire = opts.wire;
    const delays = opts.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
    this.retryDelays = this.faults.retryDelaysMs?.(delays) ?? delays;
    if (opts.send) {
      this.send = opts.send;
      this.closeSender = async () => {};
    } else {
      // Connections per origin up to the overall bound: subscriptions of several partners often
      // share one receiver (one origin), and a pool of maxPerEndpoint connections held them all
      // to that one subscription's bound; each subscription is still held to maxPerEndpoint.
      const s = httpSender({ timeoutMs: opts.timeoutMs ?? WEBHOOK_RESPONSE_DEADLINE_MS, connectionsPerOrigin: this.maxInFlight });
      this.send = s.send;
      this.closeSender = s.close;
    }
    migrateWebhooks(this.db);
    this.q = dispatcherQueries(this.db);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    // Every attempt in flight listens for the stop; that many listeners is expected, not a leak.
    setMaxListeners(0, this.abort.signal);
    // A clock jump can make retries due at once: look again right away.
    this.unsubscribeClock = this.clock.onAdvance(() => this.kick());
    this.kick();
  }

  /** Stops sending. Attempts still in flight are aborted and not recorded, so they go out again after the next start. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.timer);
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    this.unsubscribeClock?.();
    this.abort.abort();
    await Promise.allSettled([...this.inflight.values()]);
    this.flush();
    this.inflight.clear();
    this.held.clear();
    this.perEndpoint.clear();
    this.sending = 0;
    this.ready.clear();
    await this.closeSender();
  }

  /** Asks for a round soon (new outbox rows, a clock jump, a freed slot). */
  kick(): void {
    if (!this.running || this.tickQueued) return;
    this.tickQueued = true;
    setImmediate(() => {
      this.tickQueued = false;
      this.tick();
    });
  }

  /**
   * A round 5 ms from now for finished attempts: under load, completions arrive one by one,
   * and gathering a few milliseconds of them into one transaction costs far less than a
   * commit each (every commit rewrites the same index pages into the WAL).
   */
  private kickBatched(): void {
    if (!this.running || this.batchTimer) return;
    this.batchTimer = setTimeout(() => {
      this.batchTimer = undefined;
      this.kick();
    }, 5);
  }

  stats(): DispatcherStats {
    return { inFlight: this.sending, ...this.counters };
  }

  private tick(): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.flush();
    const more = this.fanOut();
    this.dispatchDue();
    if (more) return this.kick();
    const now = this.clock.now();
    const next = this.q.nextFuture.get(now) as number | null;
    const delay = next === null ? this.pollMs : Math.min(this.pollMs, this.clock.realDelayUntil(next));
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  /** Moves new outbox events into deliveries, one transaction per batch with the cursor. Returns true when more may wait. */
  fanOut(): boolean {
    const last = this.q.cursor.get() as number;
    const rows = this.q.outbox.all(last, FANOUT_BATCH) as Array<{ seq: number; id: string; partner_id: string; type: string }>;
    if (rows.length === 0) return false;
    const now = this.clock.now();
    const subsByPartner = new Map<string, FanOutSub[]>();
    const parse = (rows: unknown[]) => (rows as Array<Omit<FanOutSub, 'events'> & { events: string }>).map((s) => ({ ...s, events: JSON.parse(s.events) as string[] }));
    const route = this.faults.route;
    this.db.transaction(() => {
      for (const e of rows) {
        let subs = subsByPartner.get(e.partner_id);
        if (!subs) {
          subs = parse(this.q.subs.all(e.partner_id));
          subsByPartner.set(e.partner_id, subs);
        }
        const to = route ? route(e, subs, () => parse(this.q.allSubs.all())) : subscribed(e, subs);
        for (const s of to) this.q.addDelivery.run(e.seq, e.id, s.id, now);
      }
      this.q.setCursor.run(rows[rows.length - 1].seq);
    })();
    return rows.length === FANOUT_BATCH;
  }

  private dispatchDue(): void {
    if (this.sending >= this.maxInFlight) return;
    const now = this.clock.now();
    // One indexed range query per subscription (not a scan of every pending delivery), starting
    // at a rotating place so that, with all slots taken, no subscription is always served last.
    const hooks = this.q.hooks.all() as string[];
    // Queued rows of a subscription deleted or disabled since are dropped, never sent.
    for (const h of this.ready.keys()) if (!hooks.includes(h)) this.ready.delete(h);
    const start = hooks.length ? this.rotation++ % hooks.length : 0;
    for (let k = 0; k < hooks.length && this.sending < this.maxInFlight; k++) {
      const hook = hooks[(start + k) % hooks.length];
      if (this.freeSlots(hook) <= 0) continue;
      let queue = this.ready.get(hook);
      if (!queue || queue.length === 0) {
        queue = this.fetchDue(hook, now);
        if (queue.length === 0) continue;
        this.ready.set(hook, queue);
      }
      this.launchReady(hook);
    }
  }

  private freeSlots(hook: string): number {
    return Math.min(this.maxPerEndpoint - (this.perEndpoint.get(hook) ?? 0), this.maxInFlight - this.sending);
  }

  /** Sends read-ahead rows of a subscription while it has free slots. */
  private launchReady(hook: string): void {
    const queue = this.ready.get(hook);
    if (!queue) return;
    let free = this.freeSlots(hook);
    while (free-- > 0 && queue.length > 0) this.launch(queue.shift()!);
  }

  /** Drops read-ahead rows of a subscription that was deleted, so none of them is sent. */
  forgetSubscription(webhookId: string): void {
    this.ready.delete(webhookId);
  }

  /**
   * Due rows of one subscription, read PREFETCH at a time so that a busy endpoint costs one
   * query per batch rather than one per freed slot. Every row read is due and pending; only
   * the dispatcher itself or a deletion (handled above) changes a pending row.
   */
  private fetchDue(hook: string, now: number): DueRow[] {
    const held = this.held.get(hook) ?? 0;
    const rows = this.q.dueFor.all(hook, now, PREFETCH + held) as DueRow[];
    return rows.filter((r) => !this.inflight.has(r.id));
  }

  private launch(row: DueRow): void {
    const hook = row.webhook_id;
    this.perEndpoint.set(hook, (this.perEndpoint.get(hook) ?? 0) + 1);
    this.held.set(hook, (this.held.get(hook) ?? 0) + 1);
    this.sending++;
    const signal = this.abort.signal;
    const p = (async () => {
      const sign = (body: string, eventId: string): Record<string, string> => ({
        'content-type': 'application/json',
        'user-agent': 'lendcheck-sandbox-webhooks/1',
        ...signWebhookHeaders(body, row.secret, {
          // A profile whose scheme is unknown (a detection result) still has this sandbox sign: under the default.
          scheme: this.profile.signature.scheme ?? undefined,
          timestamp: Math.floor(this.wallNow() / 1000),
          // Standard Webhooks' webhook-id: the event id, the same on every retry (its idempotency key).
          id: eventId,
        }),
      });
      let headers = sign(row.payload, row.event_id);
      const sentAt = this.clock.now();
      const t0 = performance.now();
      let result: AttemptResult;
      try {
        if (!this.wire) result = await this.send(row.url, row.payload, headers, signal);
        else ({ result, headers } = await this.wire(this.send, { url: row.url, body: row.payload, headers, signal, attempt: row.attempts + 1, sign }));
      } catch (e) {
        result = { status: null, error: (e as Error).message };
      }
      if (signal.aborted) return; // stopping: left pending, sent again after the next start
      this.completions.push({ row, sentAt, doneAt: this.clock.now(), result, latencyMs: performance.now() - t0, signature: headers[SIGNATURE_HEADER] ?? '' });
      // The slot is free now; the row stays held (unreadable) until its outcome is recorded.
      this.sending--;
      const n = (this.perEndpoint.get(hook) ?? 1) - 1;
      if (n > 0) this.perEndpoint.set(hook, n);
      else this.perEndpoint.delete(hook);
      this.launchReady(hook);
      // Out of read-ahead rows: a round now reads more; otherwise recording can wait a little.
      if ((this.ready.get(hook)?.length ?? 0) === 0) this.kick();
      else this.kickBatched();
    })();
    this.inflight.set(row.id, p);
  }

  private succeeded(status: number | null): boolean {
    // The sender's timeout is the 5 s deadline, so an answer here came in time; the status decides.
    return isAckStatus(this.profile, status);
  }

  /** Records finished attempts, all in one transaction, then frees their slots. */
  private flush(): void {
    if (this.completions.length === 0) return;
    const done = this.completions;
    this.completions = [];
    const q = this.q;
    this.db.transaction(() => {
      for (const { row, sentAt, doneAt, result, latencyMs, signature } of done) {
        const attempt = row.attempts + 1;
        const ok = this.succeeded(result.status);
        const error = ok ? null : (result.error ?? `status ${result.status}`);
        q.addAttempt.run(row.id, attempt, row.next_at_ms, sentAt, result.status, ok ? 'succeeded' : 'failed', error, Math.round(latencyMs * 10) / 10, result.response ?? null, signature);
        if (ok) {
          q.succeed.run(attempt, row.id);
          this.counters.succeeded++;
          continue;
        }
        this.counters.failedAttempts++;
        // attempt 1 is the first delivery; attempts 2..6 are the 1st..5th retries.
        if (attempt <= this.retryDelays.length) {
          const from = this.profile.webhooks.retryDelayFrom === 'attempt-start' ? sentAt : doneAt;
          q.retry.run(attempt, from + this.retryDelays[attempt - 1], row.id);
          continue;
        }
        this.counters.gaveUp++;
        switch (this.profile.webhooks.afterFinalRetry) {
          case 'mark-failed':
            q.fail.run(attempt, row.id);
            break;
          case 'drop':
            q.dropAttempts.run(row.id);
            q.dropDelivery.run(row.id);
            break;
          case 'disable-subscription':
            q.fail.run(attempt, row.id);
            q.disableSub.run(doneAt, row.webhook_id);
            q.cancelPendingOf.run(row.webhook_id);
            this.forgetSubscription(row.webhook_id);
            break;
        }
      }
    })();
    for (const { row } of done) {
      this.inflight.delete(row.id);
      const n = (this.held.get(row.webhook_id) ?? 1) - 1;
      if (n > 0) this.held.set(row.webhook_id, n);
      else this.held.delete(row.webhook_id);
    }
  }
}
