import { setTimeout as sleep } from 'node:timers/promises';
import { unaffordable } from '../../kernel/check-kernel.ts';
import type { Profile, TierName } from '../../contract/index.ts';
import { Bucket, readLimits, tierShape, type BucketShape } from './bucket.ts';

// The request budget the whole suite shares. Every request the suite sends takes a token from
// the bucket it draws on (a key's, or the public one) and waits when lendcheck believes the
// bucket is empty, so sequential checks slow to the refill rate instead of meeting 429s. A
// storm reserves all its requests at once, on the key that can take them soonest, and is
// fired only when they are all there: a storm is never sent into an empty bucket. Waiting is
// bounded by maxWaitMs per wait; a check still without room then skips, saying how long it
// waited and what it would have needed. A 429 met anyway is counted: the harness overspent.

export const PUBLIC_BUCKET = 'public';
/** The default of --max-wait: a Starter key's whole burst refills in 100 s. */
export const DEFAULT_MAX_WAIT_MS = 120_000;
/** Waits longer than this are said as they start, so a paced run never reads as a hang. */
const SAY_WAITS_OVER_MS = 2_000;
/** Short waits (a paced run's one-second steps) are said together, each time this much more was waited. */
const SAY_PACING_EVERY_MS = 30_000;

export interface BudgetOptions {
  profile: Profile;
  maxWaitMs?: number;
  /** Tier of each key when known (the gate's key list); else the profile's default tier until headers say. */
  tiers?: Record<string, TierName | undefined>;
  /** How a bucket is named in messages (the key's variable, never the key). */
  label?: (bucket: string) => string;
  /** Where waits are said. */
  say?: (line: string) => void;
  now?: () => number;
  wait?: (ms: number) => Promise<unknown>;
}

export interface BudgetFigures {
  /** Requests admitted through the budget (paced) and sent outside it (bursts that exhaust a limit on purpose). */
  paced: number;
  unpaced: number;
  /** 429s on paced requests: the harness spent more than the bucket held (a lendcheck defect, not the target's). */
  overspent429: number;
  waits: number;
  waitedMs: number;
}

/** The figures, their 429 count read from the list of overspent requests (one record, not two). */
function figuresOver(overspent: readonly string[]): BudgetFigures {
  return {
    paced: 0,
    unpaced: 0,
    get overspent429() {
      return overspent.length;
    },
    waits: 0,
    waitedMs: 0,
  };
}

export class RequestBudget {
  readonly maxWaitMs: number;
  /** What met a 429 though paced, in order: the runner notes them on the check that sent them. */
  readonly overspent: string[] = [];
  readonly figures: BudgetFigures = figuresOver(this.overspent);
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly wait: (ms: number) => Promise<unknown>;
  /** Time during which at least one request waited for room: a check's deadline does not run then. */
  private pausedMs = 0;
  private waiting = 0;
  private waitingSince = 0;
  private nextPacingNote = SAY_PACING_EVERY_MS;
  private sent = 0;

  constructor(private readonly opts: BudgetOptions) {
    this.maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.now = opts.now ?? (() => performance.now());
    this.wait = opts.wait ?? ((ms) => sleep(ms));
  }

  bucket(id: string): Bucket {
    let b = this.buckets.get(id);
    if (!b) this.buckets.set(id, (b = new Bucket(this.initialShape(id), this.now(), this.opts.profile)));
    return b;
  }

  private initialShape(id: string): BucketShape {
    const p = this.opts.profile;
    if (id === PUBLIC_BUCKET) return { capacity: p.limits.publicBurst, perSecond: 1, source: 'the public limit of 60 a minute (spec part 8)' };
    const tier = this.opts.tiers?.[id];
    if (tier) return tierShape(tier, `the ${tier} tier of the key`);
    return tierShape(p.limits.defaultTier as TierName, `the ${p.limits.defaultTier} tier (the profile's default, until the target's headers say)`);
  }

  private label(id: string): string {
    return this.opts.label?.(id) ?? (id === PUBLIC_BUCKET ? 'the public limit' : 'a key');
  }

  /** Milliseconds spent waiting for room so far (overlapping waits counted once). */
  pausedNow(): number {
    return this.pausedMs + (this.waiting ? this.now() - this.waitingSince : 0);
  }

  private async pause(ms: number): Promise<void> {
    if (this.waiting++ === 0) this.waitingSince = this.now();
    try {
      await this.wait(ms);
    } finally {
      if (--this.waiting === 0) this.pausedMs += this.now() - this.waitingSince;
    }
  }

  /** Waits until `n` tokens are in the bucket and takes them; skips the check past maxWaitMs. */
  async acquire(id: string, n: number, what: string): Promise<void> {
    const b = this.bucket(id);
    const started = this.now();
    let said = false;
    for (;;) {
      const now = this.now();
      const ms = b.msUntil(n, now);
      if (ms === 0) {
        b.take(n, now);
        const waited = now - started;
        if (waited > 0) {
          this.figures.waits++;
          this.figures.waitedMs += waited;
          if (this.figures.waitedMs >= this.nextPacingNote) {
            this.nextPacingNote = this.figures.waitedMs + SAY_PACING_EVERY_MS;
            this.opts.say?.(`paced by the rate limit: ${this.figures.paced + this.figures.unpaced} requests sent so far, ${Math.round(this.figures.waitedMs / 1000)} s of waiting for room (${this.figures.waits} waits)`);
          }
        }
        return;
      }
      const waited = now - started;
      if (ms === Infinity) {
        throw unaffordable(`${what} needs ${n} requests at once on ${this.label(id)}, whose bucket holds at most ${b.shape.capacity} (${b.describe(now)})`);
      }
      if (waited + ms > this.maxWaitMs) {
        this.figures.waitedMs += waited;
        throw unaffordable(
          `no room within --max-wait (${Math.round(this.maxWaitMs / 1000)} s) for ${what}: ${n} request${n === 1 ? '' : 's'} on ${this.label(id)}, whose bucket (${b.describe(now)}) needs ${Math.ceil((waited + ms) / 1000)} s; waited ${Math.round(waited / 1000)} s. Raise --max-wait, or give more keys (--api-key … several times)`,
        );
      }
      if (!said && ms > SAY_WAITS_OVER_MS) {
        said = true;
        this.opts.say?.(`waiting ${Math.ceil(ms / 1000)} s for the rate limit: room for ${n} request${n === 1 ? '' : 's'} on ${this.label(id)} (${b.describe(now)}) for ${what}`);
      }
      await this.pause(Math.min(ms, 1_000));
    }
  }

  /** Takes `n` tokens ahead for requests about to be sent together (a storm); spend them with admit(). */
  async reserve(id: string, n: number, what: string): Promise<void> {
    await this.acquire(id, n, what);
    this.bucket(id).credit += n;
  }

  /** Gives back tokens a reservation did not spend. */
  release(id: string): void {
    const b = this.bucket(id);
    if (b.credit > 0) b.take(-b.credit, this.now());
    b.credit = 0;
  }

  /** The key among `ids` whose bucket can take `n` soonest (the fullest on a tie). */
  soonest(ids: readonly string[], n: number): string {
    const now = this.now();
    return [...ids].sort((a, b) => this.bucket(a).msUntil(n, now) - this.bucket(b).msUntil(n, now) || this.bucket(b).level(now) - this.bucket(a).level(now))[0]!;
  }

  /** Before a request is sent: a reserved token, or one waited for. Unpaced requests (bursts on purpose) only count.
   *  Returns the request's place in sending order, which settle() uses to tell a stale reading. */
  async admit(id: string, paced: boolean, what: string): Promise<number> {
    const b = this.bucket(id);
    if (!paced) {
      this.figures.unpaced++;
      b.take(1, this.now());
    } else {
      this.figures.paced++;
      if (b.credit > 0) b.credit--;
      else await this.acquire(id, 1, what);
    }
    b.inflight++;
    return ++this.sent;
  }

  /** After the answer (or the transport error: no headers); `learn` is false where the answer may speak of another bucket. */
  settle(id: string, answer: { status: number; headers: Record<string, string> } | undefined, paced: boolean, learn: boolean, order = Infinity, what = 'a request'): void {
    const b = this.bucket(id);
    b.inflight = Math.max(0, b.inflight - 1);
    if (!answer) return;
    if (answer.status === 429 && paced) {
      this.overspent.push(`${what} on ${this.label(id)} (believed ${Math.floor(b.level(this.now()))} left, ${b.inflight} in flight)`);
    }
    if (learn || answer.status === 429) b.observe(readLimits(this.opts.profile, answer.headers, answer.status, Date.now()), this.now(), order);
  }

  describe(id: string): string {
    return this.bucket(id).describe(this.now());
  }

  /** Seconds of waiting `requests` more would cost, spread over `ids`' buckets as they are now. */
  secondsFor(ids: readonly string[], requests: number): number {
    const now = this.now();
    const have = ids.reduce((s, id) => s + Math.floor(this.bucket(id).level(now)), 0);
    const rate = ids.reduce((s, id) => s + this.bucket(id).shape.perSecond, 0);
    return Math.max(0, requests - have) / rate;
  }
}
