// Options and thresholds of mixed.ts (k6-example style). A partner's mix as one
// arrival-rate scenario per action, each at its share of a target request rate that
// stays inside the tier; latency is judged per endpoint through the `endpoint` tag.
import type { Options } from 'k6/options';
import { PUBLIC_PER_MINUTE } from '../../contract/constants.ts';
import type { RouteId } from '../../contract/routes.ts';
import { perSecond, type LoadConfig } from './config.ts';

export interface Action {
  /** Share of the keyed request rate. */
  share: number;
  /** Requests one iteration makes. */
  cost: number;
  /** Endpoint ids it touches (for the per-endpoint thresholds). */
  endpoints: RouteId[];
}

export const ACTIONS: Record<string, Action> = {
  readPosition: { share: 0.25, cost: 1, endpoints: ['position.get'] },
  listPositions: { share: 0.15, cost: 2, endpoints: ['positions.list'] },
  lend: { share: 0.1, cost: 1, endpoints: ['lend.create'] },
  borrow: { share: 0.05, cost: 1, endpoints: ['borrow.create'] },
  repay: { share: 0.05, cost: 1, endpoints: ['position.repay'] },
  cancel: { share: 0.1, cost: 3, endpoints: ['lend.create', 'position.cancel'] },
  withdraw: { share: 0.05, cost: 1, endpoints: ['user.withdraw'] },
  patch: { share: 0.05, cost: 1, endpoints: ['position.patch'] },
  rates: { share: 0.1, cost: 1, endpoints: ['rates.get'] },
  orderbook: { share: 0.1, cost: 1, endpoints: ['orderbook.get'] },
};

export const PUBLIC_ENDPOINTS: RouteId[] = ['public.markets', 'public.orderbook', 'public.rates', 'public.tvl', 'public.vaults'];

export interface MixedPlan {
  /** Keyed requests per second: a fraction of the tier's rate. */
  targetPerSecond: number;
  /** Public requests per second, well inside the public limit of the one client address. */
  publicPerSecond: number;
  seconds: number;
  p95: number;
  p99: number;
}

export function mixedPlan(cfg: LoadConfig): MixedPlan {
  const fraction = Number(__ENV.TARGET_FRACTION || 0.5);
  return {
    targetPerSecond: perSecond(cfg) * fraction,
    publicPerSecond: Math.min(perSecond(cfg) * fraction * 0.15, (PUBLIC_PER_MINUTE / 60) * 0.5),
    seconds: Number(__ENV.MIXED_SECONDS || (cfg.smoke ? 10 : 300)),
    p95: Number(__ENV.P95_MS || (cfg.smoke ? 1000 : 500)),
    p99: Number(__ENV.P99_MS || (cfg.smoke ? 2000 : 1000)),
  };
}

export function mixedOptions(plan: MixedPlan): Options {
  const perMinute = (perSecond: number) => Math.max(1, Math.round(perSecond * 60));
  const scenario = (exec: string, iterationsPerSecond: number) => ({
    executor: 'constant-arrival-rate' as const,
    rate: perMinute(iterationsPerSecond),
    timeUnit: '1m',
    duration: `${plan.seconds}s`,
    preAllocatedVUs: 2,
    maxVUs: 20,
    gracefulStop: '10s',
    exec,
  });
  const scenarios: NonNullable<Options['scenarios']> = {};
  for (const [name, a] of Object.entries(ACTIONS)) scenarios[name] = scenario(name, (plan.targetPerSecond * a.share) / a.cost);
  scenarios.publicData = scenario('publicData', plan.publicPerSecond);

  const thresholds: NonNullable<Options['thresholds']> = {
    // Answers other than 2xx and 429 stay rare.
    mix_errors: ['rate<0.01'],
    // Transport and server failures stay rare; 429 is an expected status.
    http_req_failed: ['rate<0.01'],
  };
  const all = new Set([...Object.values(ACTIONS).flatMap((a) => a.endpoints), ...PUBLIC_ENDPOINTS]);
  // Per endpoint: p95 and p99 latency. An endpoint the run never reached has no samples,
  // which k6 reads as 0 ms; the command's figures list only the endpoints reached.
  for (const e of all) thresholds[`http_req_duration{endpoint:${e}}`] = [`p(95)<${plan.p95}`, `p(99)<${plan.p99}`];
  return { scenarios, thresholds, setupTimeout: '60s', summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'] };
}
