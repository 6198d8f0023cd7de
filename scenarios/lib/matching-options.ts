// Options and thresholds of matching.ts (k6-example style). Lenders and borrowers are
// separate arrival-rate scenarios at the same rate, so the i-th lender and the i-th
// borrower meet on the same market.
import type { Options } from 'k6/options';
import { perSecond, type LoadConfig } from './config.ts';

export interface MatchingPlan {
  /** Orders per second on each side. */
  perSide: number;
  seconds: number;
  marketCount: number;
  /** 'webhooks': the receiver's record of the signed matched event; 'polling': GET /positions/{id}. */
  matchBy: 'webhooks' | 'polling';
  receiverUrl: string;
  pollSeconds: number;
  matchTimeoutSeconds: number;
  acceptP95: number;
  acceptP99: number;
  /** Optional stricter bound on time-to-match p99 per market (bench: 100 ms). */
  ttmP99: number;
  minMatchRatio: number;
}

export function matchingPlan(cfg: LoadConfig, poolSize = 1): MatchingPlan {
  const receiverUrl = __ENV.RECEIVER_URL || '';
  const matchBy = receiverUrl ? 'webhooks' : 'polling';
  // One key, polling: each order costs about 1 + polls requests, so a tenth of the tier's
  // rate per side leaves room for them. A pool's rate is set by the command (checked
  // against the pool's budget); smoke runs live on the burst allowance.
  const perSide = Number(__ENV.ORDERS_PER_SECOND || (cfg.smoke ? 2 : Math.max(0.1, perSecond(cfg) * poolSize * (matchBy === 'webhooks' ? 0.45 : 0.1))));
  // A webhook arrives within ms of the match; polling needs room for its interval and 429s.
  const matchTimeoutSeconds = Number(__ENV.MATCH_TIMEOUT_SECONDS || (matchBy === 'webhooks' ? (cfg.smoke ? 3 : 10) : cfg.smoke ? 8 : 60));
  return {
    perSide,
    seconds: Number(__ENV.MATCHING_SECONDS || (cfg.smoke ? 8 : 120)),
    marketCount: Number(__ENV.MARKETS || (cfg.smoke ? 2 : 4)),
    matchBy,
    receiverUrl: receiverUrl.replace(/\/?$/, '/'),
    pollSeconds: Number(__ENV.POLL_SECONDS || (cfg.smoke ? 0.25 : 1)),
    matchTimeoutSeconds,
    acceptP95: Number(__ENV.ACCEPT_P95_MS || 1000),
    acceptP99: Number(__ENV.ACCEPT_P99_MS || 2000),
    ttmP99: Number(__ENV.TTM_P99_MS || matchTimeoutSeconds * 1000),
    minMatchRatio: Number(__ENV.MIN_MATCH_RATIO || 0.9),
  };
}

export function marketTag(m: { asset: string; maturity: string }): string {
  return `${m.asset} ${m.maturity}`;
}

export function matchingOptions(plan: MatchingPlan, marketTags: string[]): Options {
  // With webhooks a VU is busy for its order and one call to the receiver (the matched event
  // is joined to the acknowledgement there, read at teardown); polling holds it for the whole
  // time-to-match.
  const busySeconds = plan.matchBy === 'webhooks' ? 0.25 : plan.matchTimeoutSeconds + 2;
  const maxVUs = plan.matchBy === 'webhooks' ? Math.ceil(plan.perSide * 2) + 20 : Math.min(3000, Math.ceil(plan.perSide * (plan.matchTimeoutSeconds + 2)) * 2);
  const side = (exec: string) => ({
    executor: 'constant-arrival-rate' as const,
    // Integer arrivals per minute: k6 wants an integer rate.
    rate: Math.max(1, Math.round(plan.perSide * 60)),
    timeUnit: '1m',
    duration: `${plan.seconds}s`,
    preAllocatedVUs: Math.min(maxVUs, Math.ceil(plan.perSide * busySeconds) + 10),
    maxVUs,
    gracefulStop: plan.matchBy === 'webhooks' ? '10s' : `${plan.matchTimeoutSeconds + 5}s`,
    exec,
  });
  const perMarket: Record<string, string[]> = {};
  // A threshold per market makes k6's summary show that market's percentiles.
  for (const m of marketTags) perMarket[`time_to_match_ms{market:${m}}`] = [`p(99)<${plan.ttmP99}`];
  return {
    scenarios: { lenders: side('lender'), borrowers: side('borrower') },
    thresholds: {
      // Orders are taken quickly.
      order_accept_ms: [`p(95)<${plan.acceptP95}`, `p(99)<${plan.acceptP99}`],
      // Crossing orders become active soon after their counterparty arrives.
      time_to_match_ms: [`p(95)<${plan.matchTimeoutSeconds * 1000}`, `p(99)<${plan.ttmP99}`],
      ...perMarket,
      // Nearly every order is matched before the timeout (the last arrivals may lack a partner).
      matched: [`rate>${plan.minMatchRatio}`],
      // Placing an order almost never fails (429s are the limiter, counted apart).
      order_errors: ['rate<0.01'],
      // Transport and server failures stay rare; 429 is an expected status.
      http_req_failed: ['rate<0.01'],
    },
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'],
    // Teardown waits for the last matched events to arrive (at most the match timeout).
    teardownTimeout: `${plan.matchTimeoutSeconds + 20}s`,
  };
}
