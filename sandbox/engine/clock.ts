// Business time for the sandbox, in the manner of Stripe's test clocks. Maturity, interest,
// withdrawal completion and webhook retry delays all read this clock; rate limits do not
// (they stay on real time). With timeScale 3600 an hour of business time passes per real
// second; advance() jumps forward at once. Time never moves backwards.

export interface Clock {
  /** Business time, epoch milliseconds. */
  now(): number;
  readonly timeScale: number;
  /** Moves business time forward by ms and tells listeners. */
  advance(ms: number): void;
  /** Real milliseconds until business time reaches `atMs` (0 when already there). */
  realDelayUntil(atMs: number): number;
  /** Called after every advance(); scheduled work re-plans its timers here. */
  onAdvance(listener: (nowMs: number) => void): () => void;
  /** Offset state to persist, so a restart resumes business time where it was. */
  snapshot(): ClockState;
}

export interface ClockState {
  /** Business time at the moment the snapshot was taken. */
  businessMs: number;
  timeScale: number;
}

export interface ClockOptions {
  timeScale?: number;
  /** Business time to start from (restored state, or a fixed start for tests). */
  startMs?: number;
  /** Real-time source, injectable for tests. */
  realNow?: () => number;
}

export class TestClock implements Clock {
  readonly timeScale: number;
  private readonly realNow: () => number;
  private readonly realStart: number;
  private readonly businessStart: number;
  private advancedMs = 0;
  private readonly listeners = new Set<(nowMs: number) => void>();

  constructor(opts: ClockOptions = {}) {
    if (opts.timeScale !== undefined && !(opts.timeScale > 0)) throw new Error('timeScale must be > 0');
    this.timeScale = opts.timeScale ?? 1;
    this.realNow = opts.realNow ?? (() => performance.timeOrigin + performance.now());
    this.realStart = this.realNow();
    this.businessStart = opts.startMs ?? Date.now();
  }

  now(): number {
    return Math.floor(this.businessStart + (this.realNow() - this.realStart) * this.timeScale + this.advancedMs);
  }

  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new Error('advance needs a non-negative number of ms');
    this.advancedMs += ms;
    const now = this.now();
    for (const l of this.listeners) l(now);
  }

  realDelayUntil(atMs: number): number {
    return Math.max(0, (atMs - this.now()) / this.timeScale);
  }

  onAdvance(listener: (nowMs: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): ClockState {
    return { businessMs: this.now(), timeScale: this.timeScale };
  }
}
