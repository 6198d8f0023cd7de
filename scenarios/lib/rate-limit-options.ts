// Options and thresholds of rate-limit.ts in one module (k6-example style). The phases
// run one after another on one key (or one client address), each as an arrival-rate
// executor so `--execution-segment` splits them cleanly. The thresholds encode the tier:
// k6's exit code is the verdict on whether the limiter enforces that tier.
import type { Options } from 'k6/options';
import { perSecond, type LoadConfig } from './config.ts';

/** Sequential requests of the header probe, taken from the bucket before the burst. */
export const PROBE_REQUESTS = 5;
/** The burst goes out as this many parallel batches, so segments can share it. */
export const BURST_CHUNKS = 8;
/** Parallel requests per batch; BURST_CHUNKS × this is the burst's concurrency. */
export const BURST_BATCH = 20;

export interface RateLimitPlan {
  burstStart: number;
  /** Requests per burst chunk; the burst fires BURST_CHUNKS × this (≥ burst + 20 %). */
  chunkRequests: number;
  /** Time the burst may take before the sustained phase starts. */
  burstAllowance: number;
  sustainStart: number;
  /** The sustained phase first drains what refilled since the burst, then is measured. */
  warmupSeconds: number;
  measureSeconds: number;
  recoveryStart: number;
  burstBounds: [number, number];
  sustainBounds: [number, number];
}

export function rateLimitPlan(cfg: LoadConfig): RateLimitPlan {
  const rate = perSecond(cfg);
  const chunkRequests = Math.ceil((cfg.burst * 1.2) / BURST_CHUNKS);
  const burstAllowance = Number(__ENV.BURST_ALLOWANCE_SECONDS || 4);
  const measureSeconds = Number(__ENV.SUSTAIN_SECONDS || (cfg.smoke ? 6 : 60));
  // At twice the rate the bucket loses one token net per token refilled, so what refilled
  // over the gap after the burst is gone after as long again; one second of margin.
  const warmupSeconds = burstAllowance + 2;
  // Upper bound: the bucket plus what refills while the burst is still being answered.
  const burstBounds: [number, number] = [
    Math.floor((cfg.burst - PROBE_REQUESTS) * (1 - cfg.burstTolerance)),
    Math.ceil(cfg.burst * (1 + cfg.burstTolerance) + rate * (burstAllowance + 1)),
  ];
  const expected = rate * measureSeconds;
  // ±1 request: a token bucket admits whole requests, so the window edges can gain or lose one.
  const sustainBounds: [number, number] = [Math.floor(expected * (1 - cfg.sustainTolerance) - 1), Math.ceil(expected * (1 + cfg.sustainTolerance) + 1)];
  const burstStart = 1;
  const sustainStart = burstStart + burstAllowance + 1;
  return {
    burstStart,
    chunkRequests,
    burstAllowance,
    sustainStart,
    warmupSeconds,
    measureSeconds,
    recoveryStart: sustainStart + warmupSeconds + measureSeconds,
    burstBounds,
    sustainBounds,
  };
}

/** Sum of phase lengths: what a run takes, for the command's timeout. */
export function planSeconds(cfg: LoadConfig, plan: RateLimitPlan): number {
  return plan.recoveryStart + (cfg.smoke ? 15 : Math.ceil(cfg.burst / perSecond(cfg)) + 30);
}

export function rateLimitOptions(cfg: LoadConfig, plan: RateLimitPlan): Options {
  const single = (start: number, exec: string, graceful: string) => ({
    executor: 'constant-arrival-rate' as const,
    // One iteration at the start time: a rate of one per minute over one second.
    rate: 1,
    timeUnit: '1m',
    duration: '1s',
    preAllocatedVUs: 1,
    maxVUs: 1,
    startTime: `${start}s`,
    gracefulStop: graceful,
    exec,
  });
  return {
    batch: BURST_BATCH,
    batchPerHost: BURST_BATCH,
    scenarios: {
      probe: single(0, 'probe', '1s'),
      burst: {
        executor: 'constant-arrival-rate',
        // k6's shortest duration is 1 s: the chunks start 125 ms apart.
        rate: BURST_CHUNKS,
        timeUnit: '1s',
        duration: '1s',
        preAllocatedVUs: BURST_CHUNKS,
        maxVUs: BURST_CHUNKS,
        startTime: `${plan.burstStart}s`,
        gracefulStop: `${plan.burstAllowance}s`,
        exec: 'burst',
      },
      sustain: {
        executor: 'constant-arrival-rate',
        rate: cfg.perMinute * 2,
        timeUnit: '1m',
        duration: `${plan.warmupSeconds + plan.measureSeconds}s`,
        preAllocatedVUs: 10,
        maxVUs: 50,
        startTime: `${plan.sustainStart}s`,
        gracefulStop: '5s',
        exec: 'sustain',
      },
      // Full runs wait the whole Reset (up to two minutes for the listed tiers).
      recovery: single(plan.recoveryStart, 'recovery', cfg.smoke ? '30s' : `${Math.ceil(cfg.burst / perSecond(cfg)) + 30}s`),
    },
    thresholds: {
      // The burst admits the bucket (the burst figure), less the probe, within the tolerance.
      'accepted{phase:burst}': [`count>=${plan.burstBounds[0]}`, { threshold: `count<=${plan.burstBounds[1]}`, abortOnFail: true }],
      // Firing 20 % over the burst must reach the limit.
      'rejected{phase:burst}': ['count>=1'],
      // At twice the tier's rate, once drained, the limiter admits the tier's rate.
      'accepted{phase:sustain,window:measure}': [`count>=${plan.sustainBounds[0]}`, `count<=${plan.sustainBounds[1]}`],
      // Twice the rate means about half is refused.
      'rejected{phase:sustain,window:measure}': ['count>=1'],
      // Every header rule held on every response.
      header_violations: ['count==0'],
      // Every 429 carried the error body and the headers.
      well_formed_429: ['rate==1'],
      // Requests were accepted again after waiting what the headers said.
      recovered: ['rate==1'],
      // Nothing but 2xx and 429 came back.
      unexpected_status: ['rate==0'],
    },
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'],
  };
}
