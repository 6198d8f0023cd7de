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
  pollSeconds: number;
  matchTimeoutSeconds: number;
  acceptP95: number;
  acceptP99: number;
}

export function matchingPlan(cfg: LoadConfig): MatchingPlan {
  // Full runs stay inside the tier: each order costs about 1 + polls requests, so a tenth of
  // the rate per side leaves room for the polling. Smoke runs live on the burst allowance.
  const perSide = Number(__ENV.ORDERS_PER_SECOND || (cfg.smoke ? 2 : Math.max(0.1, perSecond(cfg) * 0.1)));
  return {
    perSide,
    seconds: Number(__ENV.MATCHING_SECONDS || (cfg.smoke ? 8 : 120)),
    marketCount: Number(__ENV.MARKETS || (cfg.smoke ? 2 : 4)),
    pollSeconds: cfg.smoke ? 0.25 : 1,
    matchTimeoutSeconds: Number(__ENV.MATCH_TIMEOUT_SECONDS || (cfg.smoke ? 8 : 60)),
    acceptP95: Number(__ENV.ACCEPT_P95_MS || 1000),
    acceptP99: Number(__ENV.ACCEPT_P99_MS || 2000),
  };
}

export function matchingOptions(plan: MatchingPlan): Options {
  const side = (exec: string) => ({
    executor: 'constant-arrival-rate' as const,
    // Integer arrivals per minute: k6 wants an integer rate.
    rate: Math.max(1, Math.round(plan.perSide * 60)),
    timeUnit: '1m',
    duration: `${plan.seconds}s`,
    preAllocatedVUs: Math.ceil(plan.perSide * (plan.matchTimeoutSeconds + 2)),
    maxVUs: Math.ceil(plan.perSide * (plan.matchTimeoutSeconds + 2)) * 2,
    gracefulStop: `${plan.matchTimeoutSeconds + 5}s`,
    exec,
  });
  return {
    scenarios: { lenders: side('lender'), borrowers: side('borrower') },
    thresholds: {
      // Orders are taken quickly.
      order_accept_ms: [`p(95)<${plan.acceptP95}`, `p(99)<${plan.acceptP99}`],
      // Crossing orders become active soon after their counterparty arrives.
      time_to_match_ms: [`p(95)<${plan.matchTimeoutSeconds * 1000}`],
      // Nearly every order is matched before the timeout (the last arrivals may lack a partner).
      matched: ['rate>0.9'],
      // Placing an order almost never fails (429s are the limiter, counted apart).
      order_errors: ['rate<0.01'],
      // Transport and server failures stay rare; 429 is an expected status.
      http_req_failed: ['rate<0.01'],
    },
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'],
  };
}
