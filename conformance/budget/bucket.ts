import { TIERS, type Profile, type TierName } from '../../contract/index.ts';

// What lendcheck believes about one rate-limit bucket of the target: how much it holds, how
// fast it refills, and how many tokens are in it now. The belief starts from the profile (the
// key's tier when known, else the profile's default tier) and is corrected by every answer's
// X-RateLimit-* headers, read in the units the profile names. It only ever errs towards
// waiting: readings are lowered by the requests still in flight, and a 429 empties it.

export interface BucketShape {
  /** Most tokens the bucket holds (the burst). */
  capacity: number;
  /** Tokens added per second. */
  perSecond: number;
  /** Where the shape came from, for messages: "X-RateLimit-* headers", "the growth tier (profile default)". */
  source: string;
}

export interface LimitReading {
  limit?: number;
  remaining?: number;
  /** Seconds until the bucket is full again, already converted from the profile's unit. */
  resetSeconds?: number;
  /** Seconds a 429 asked to wait (Retry-After). */
  retryAfterSeconds?: number;
  status: number;
}

export function tierShape(tier: TierName, source: string): BucketShape {
  return { capacity: TIERS[tier].burst, perSecond: TIERS[tier].perMinute / 60, source };
}

/** The shape an X-RateLimit-Limit figure names under the profile, when it names a tier. */
export function shapeFromLimit(p: Profile, limit: number): BucketShape | undefined {
  const byBurst = p.limits.limitHeader === 'burst';
  const tier = (Object.keys(TIERS) as TierName[]).find((t) => (byBurst ? TIERS[t].burst : TIERS[t].perMinute) === limit);
  if (tier) return tierShape(tier, `the ${tier} tier, by its X-RateLimit-Limit`);
  return undefined;
}

const intOf = (v: string | undefined): number | undefined => (v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined);

/** The X-RateLimit-* headers and Retry-After of an answer, Reset in seconds from now. */
export function readLimits(p: Profile, headers: Record<string, string>, status: number, nowMs = Date.now()): LimitReading {
  const reset = intOf(headers['x-ratelimit-reset']);
  let resetSeconds: number | undefined;
  if (reset !== undefined) {
    if (p.limits.resetUnit === 'delta-seconds') resetSeconds = reset;
    else if (p.limits.resetUnit === 'unix-seconds') resetSeconds = Math.max(0, reset - nowMs / 1000);
    else resetSeconds = Math.max(0, (reset - nowMs) / 1000);
  }
  const ra = headers['retry-after'];
  let retryAfterSeconds = intOf(ra);
  if (retryAfterSeconds === undefined && ra && !Number.isNaN(Date.parse(ra))) retryAfterSeconds = Math.max(0, (Date.parse(ra) - nowMs) / 1000);
  return { limit: intOf(headers['x-ratelimit-limit']), remaining: intOf(headers['x-ratelimit-remaining']), resetSeconds, retryAfterSeconds, status };
}

export class Bucket {
  shape: BucketShape;
  private tokens: number;
  private at: number;
  private blockedUntil = 0;
  /** Requests sent and not yet answered. */
  inflight = 0;
  /** Tokens taken ahead by a reservation and not yet spent. */
  credit = 0;

  constructor(shape: BucketShape, now: number, private readonly profile: Profile) {
    this.shape = shape;
    this.tokens = shape.capacity;
    this.at = now;
  }

  level(now: number): number {
    return Math.min(this.shape.capacity, this.tokens + ((now - this.at) / 1000) * this.shape.perSecond);
  }

  /** Milliseconds until `n` tokens are there (0: now); Infinity when the bucket can never hold `n`. */
  msUntil(n: number, now: number): number {
    if (n > this.shape.capacity) return Infinity;
    const block = Math.max(0, this.blockedUntil - now);
    const lack = n - this.level(now);
    return Math.max(block, lack <= 0 ? 0 : Math.ceil((lack / this.shape.perSecond) * 1000));
  }

  take(n: number, now: number): void {
    this.tokens = this.level(now) - n;
    this.at = now;
  }

  /** Sending order of the request whose reading was last taken whole. */
  private readFrom = -Infinity;

  /**
   * An answer's headers (this bucket's); `inflight` is already lowered for the answer itself.
   * `order` is the request's place in sending order: a target counts a request when it arrives
   * but may answer it long after (a slow write), when requests sent later have been counted and
   * answered. Such a stale reading may only lower the belief, never raise it.
   */
  observe(r: LimitReading, now: number, order = Infinity): void {
    if (r.limit !== undefined) {
      const s = shapeFromLimit(this.profile, r.limit);
      if (s) this.shape = s;
      else if (this.profile.limits.limitHeader === 'burst') this.shape = { ...this.shape, capacity: r.limit, source: `its X-RateLimit-Limit` };
      else this.shape = { ...this.shape, perSecond: r.limit / 60, source: `its X-RateLimit-Limit` };
    }
    if (r.remaining !== undefined) {
      // A reading counts what the target had when it answered; what is still in flight may not be in it yet.
      const read = Math.max(0, Math.min(this.shape.capacity, r.remaining) - this.inflight - this.credit);
      const fresh = order >= this.readFrom;
      this.tokens = fresh ? read : Math.min(this.level(now), read);
      if (fresh) this.readFrom = order;
      this.at = now;
    }
    if (r.status === 429) {
      this.tokens = Math.min(this.tokens, 0);
      this.at = now;
      const wait = r.retryAfterSeconds ?? (r.resetSeconds !== undefined && r.remaining === 0 ? Math.min(r.resetSeconds, 1 / this.shape.perSecond) : 1 / this.shape.perSecond);
      this.blockedUntil = Math.max(this.blockedUntil, now + wait * 1000);
    }
  }

  describe(now: number): string {
    const perMinute = Math.round(this.shape.perSecond * 60);
    return `${perMinute} a minute with a burst of ${this.shape.capacity} (${this.shape.source}); about ${Math.floor(this.level(now))} left now`;
  }
}
