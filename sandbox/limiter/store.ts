// Where the limiter keeps its state. The state of one bucket is a single number, the
// GCRA "theoretical arrival time" (TAT, ms on the limiter's time source), so a store only
// needs get/set with an expiry: once now passes the TAT the bucket is full again and the
// entry carries no information.
//
// Redis mapping (for several sandbox instances sharing limits): key `lendcheck:rl:<bucket>`
// holds the TAT as a string with PEXPIRE (tat - now). The get-compare-set of one check must
// then be atomic across instances, so a Redis limiter runs the whole GCRA step of gcra.ts
// in one Lua script (EVALSHA, KEYS[1] = the bucket key, ARGV = now, interval, capacity) and
// returns [allowed, tat]; its RateLimiter.check returns a Promise, which the limiter stage
// already awaits. The in-memory store below is the per-instance store the issue allows.

export interface LimiterStore {
  /** The bucket's TAT, or undefined when it has none (a full bucket). */
  get(key: string): number | undefined;
  /** Stores the TAT; the entry may be forgotten once the time source passes it (tat - now ms from now). */
  set(key: string, tatMs: number, nowMs: number): void;
}


export class MemoryLimiterStore implements LimiterStore {
  private readonly map = new Map<string, number>();
  private writes = 0;

  /** `sweepAbove`: entry count above which expired entries are swept (bounds memory under many client addresses). */
  constructor(private readonly sweepAbove = 10_000) {}

  get(key: string): number | undefined {
    return this.map.get(key);
  }

  set(key: string, tatMs: number, nowMs: number): void {
    this.map.set(key, tatMs);
    // Sweeping on every write would cost O(n); every 1024th write above the bound keeps it amortised.
    if (++this.writes % 1024 === 0 && this.map.size > this.sweepAbove) this.sweep(nowMs);
  }

  /** Forgets buckets that are full again at `nowMs` (TAT at or before it). */
  sweep(nowMs: number): number {
    let removed = 0;
    for (const [k, tat] of this.map) {
      if (tat <= nowMs) {
        this.map.delete(k);
        removed++;
      }
    }
    return removed;
  }

  get size(): number {
    return this.map.size;
  }
}
