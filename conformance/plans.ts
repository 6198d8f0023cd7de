import type { Check } from './check.ts';
import { CheckRegistry } from '../kernel/check-kernel.ts';

// The run plans of `lendcheck conformance --plan NAME`. `full` (the default, and the gate's) runs
// every check. `quick` is for the inner loop (a pre-commit hook, a watch mode): the checks that
// catch the most per request (money moved twice or lost under overlap, one partner reaching
// another's, the error objects, the rate-limit headers), with storms of 5 instead of 8, under a
// hard cap of requests. A check the cap cannot afford is skipped and named, never dropped quietly;
// the run's figures say what the plan left out.

export const PLAN_NAMES = ['full', 'quick'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  /** One line for --help and the console. */
  about: string;
  /** Check ids in run order (catch per request first); undefined: every check, in phase order. */
  checks?: readonly string[];
  /** Overlapping requests per storm; undefined: the suite's STORM. */
  storm?: number;
  /** No check starts once the run has sent this many requests: the rest skip as unaffordable, named. */
  requestCap?: number;
  /**
   * false: the run never drives sandbox controls, even where the target has them; it runs as
   * against any service (pre-funded users, real time), so its cost is the same on every target.
   */
  controls?: false;
}

/**
 * The quick plan's checks, most caught per request first, each with the sandbox fault modes
 * (`sandbox --fault NAME`) it catches under the plan: conformance/plans.test.ts holds every
 * concurrency and money fault to a check here and the cap to the measured costs, and
 * bench/quick-plan.ts shows the catches through the CLI, as a user runs it.
 */
export const QUICK_CHECKS: ReadonlyArray<{ id: string; catches: readonly string[] }> = [
  { id: 'concurrency.lend-overcommit', catches: ['lend-race', 'counter-race'] },
  { id: 'concurrency.borrow-overcommit', catches: ['borrow-race', 'counter-race'] },
  { id: 'concurrency.cancel-once', catches: ['cancel-race', 'cancel-double-refund'] },
  { id: 'concurrency.withdraw-overcommit', catches: ['withdraw-race', 'withdraw-not-debited'] },
  { id: 'concurrency.repay-once', catches: ['repay-race'] },
  { id: 'concurrency.partner-isolation', catches: ['partner-leak'] },
  { id: 'concurrency.read-after-write', catches: ['stale-read'] },
  { id: 'concurrency.pagination-writes', catches: ['cursor-shift'] },
  { id: 'concurrency.patch-no-lost-update', catches: ['patch-lost-update', 'stale-read'] },
  { id: 'concurrency.matching-no-overfill', catches: ['match-overfill', 'stale-read'] },
  // One request each: another partner's reach, the error objects, the rate-limit headers.
  { id: 'auth.isolation', catches: [] },
  { id: 'errors.insufficient-funds', catches: [] },
  { id: 'errors.position-not-found', catches: [] },
  { id: 'limits.headers-decrease', catches: [] },
  // They judge what the run recorded, at no cost of their own.
  { id: 'endpoint.every-success-body', catches: [] },
  { id: 'limits.headers-everywhere', catches: [] },
];

export const PLANS: Record<PlanName, Plan> = {
  full: { name: 'full', about: 'every check (the default, and the gate\'s)' },
  quick: {
    name: 'quick',
    about: 'money under overlap, partner isolation, error objects and rate-limit headers, in at most 150 requests: for a pre-commit hook or a watch mode',
    checks: QUICK_CHECKS.map((c) => c.id),
    storm: 5,
    requestCap: 150,
    controls: false,
  },
};

/** A plan by name; an unknown name is the user's mistake, said with the names there are. */
export function planNamed(name: string | undefined): Plan {
  if (name === undefined) return PLANS.full;
  if ((PLAN_NAMES as readonly string[]).includes(name)) return PLANS[name as PlanName];
  throw new Error(`--plan: unknown plan "${name}" (plans: ${PLAN_NAMES.join(', ')})`);
}

/** The plan's checks, in its order, and the checks it leaves out (for the report's "left out"). */
export function planChecks(plan: Plan, all: Check[]): { run: Check[]; leftOut: Check[] } {
  if (!plan.checks) return { run: all, leftOut: [] };
  const byId = new Map(all.map((c) => [c.id, c]));
  const run = plan.checks.map((id) => byId.get(id)).filter((c): c is Check => !!c);
  return { run: new CheckRegistry<Check>(run).list(), leftOut: all.filter((c) => !plan.checks!.includes(c.id)) };
}

/**
 * Why a check cannot start under the plan's cap, or undefined: the run has sent `sent` requests
 * and the check is expected to cost `QUICK_COSTS` (measured under the plan). A skip, not a drop:
 * the part is INCOMPLETE and the reason names the cap.
 */
export function capSkip(plan: Plan, id: string, sent: number): string | undefined {
  if (plan.requestCap === undefined) return undefined;
  const cost = PLAN_COSTS[id] ?? 0;
  // A check of no cost of its own (it judges what the run recorded) is never cut.
  if (cost === 0 || sent + cost <= plan.requestCap) return undefined;
  return `the ${plan.name} plan's cap of ${plan.requestCap} requests: ${sent} sent, and this check costs about ${cost}; run without --plan for every check`;
}

/**
 * What each check of a capped plan costs, in requests, measured under that plan's storm size
 * (bench/quick-plan.ts against the sandbox as a partner meets it: limits on, no controls). A
 * check not listed costs nothing of its own (it judges what the run recorded).
 */
export const PLAN_COSTS: Readonly<Record<string, number>> = {
  'concurrency.lend-overcommit': 12,
  'concurrency.borrow-overcommit': 7,
  'concurrency.cancel-once': 8,
  'concurrency.withdraw-overcommit': 7,
  'concurrency.repay-once': 13,
  'concurrency.partner-isolation': 13,
  'concurrency.read-after-write': 6,
  'concurrency.pagination-writes': 20,
  'concurrency.patch-no-lost-update': 20,
  'concurrency.matching-no-overfill': 18,
  'auth.isolation': 8,
  'errors.insufficient-funds': 2,
  'errors.position-not-found': 4,
  'limits.headers-decrease': 8,
};

/** A capped plan's expected cost for these checks (its own measured costs), or undefined for an uncapped plan. */
export function planCost(plan: Plan, ids: readonly string[]): number | undefined {
  if (plan.requestCap === undefined) return undefined;
  return Math.min(plan.requestCap, ids.reduce((n, id) => n + (PLAN_COSTS[id] ?? 0), 0));
}
