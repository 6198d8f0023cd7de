import { MemoryLimiterStore, type LimiterStore } from './store.ts';

// GCRA (generic cell rate algorithm): the token bucket expressed as one timestamp per
// bucket. Written by hand because no installed library implements it, and the tests need
// exactness to the single request: with an integer emission interval (every spec tier:
// 1000, 200 and 60 ms) and integer times, every step below is exact integer arithmetic.
//
//   interval T = 60_000 / perMinute ms, capacity B (a full bucket holds B requests)
//   tat' = max(tat, now) + T; allowed iff tat' - B·T <= now
//   remaining = floor((now - (tat' - B·T)) / T); full again at tat' (reset = tat' - now)

export interface LimitRule {
  /** Name shown in messages: a tier name or "public". */
  name: string;
  /** Bucket capacity: requests that may go out at once from a full bucket. */
  capacity: number;
  /** Sustained rate; the bucket refills one request every 60 000 / perMinute ms. */
  perMinute: number;
}

export interface LimitDecision {
  allowed: boolean;
  /** Capacity of the bucket. */
  limit: number;
  /** Requests that could go out right now after this one. */
  remaining: number;
  /** Ms (on the limiter's time source) until the bucket is full again. */
  resetMs: number;
  resetSeconds: number;
  /** Ms until the next request would be allowed; 0 when this one was. */
  retryAfterMs: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** A Redis-backed limiter returns a Promise here; callers await. */
  check(bucketKey: string, rule: LimitRule, nowMs: number): LimitDecision | Promise<LimitDecision>;
}

export class GcraLimiter implements RateLimiter {
  constructor(readonly store: LimiterStore = new MemoryLimiterStore()) {}

  check(bucketKey: string, rule: LimitRule, nowMs: number): LimitDecision {
    const interval = 60_000 / rule.perMinute;
    const tolerance = rule.capacity * interval;
    const stored = this.store.get(bucketKey);
    const tat = stored === undefined || stored < nowMs ? nowMs : stored;
    const next = tat + interval;
    const allowAt = next - tolerance;
    if (allowAt > nowMs) {
      const retryAfterMs = allowAt - nowMs;
      const resetMs = tat - nowMs;
      return {
        allowed: false,
        limit: rule.capacity,
        remaining: 0,
        resetMs,
        resetSeconds: Math.ceil(resetMs / 1000),
        retryAfterMs,
        // Never 0 on a refusal: "Retry-After: 0" would invite an immediate retry that fails again.
        retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
      };
    }
    this.store.set(bucketKey, next, nowMs);
    const resetMs = next - nowMs;
    return {
      allowed: true,
      limit: rule.capacity,
      remaining: Math.floor((nowMs - allowAt) / interval),
      resetMs,
      resetSeconds: Math.ceil(resetMs / 1000),
      retryAfterMs: 0,
      retryAfterSeconds: 0,
    };
  }
}
