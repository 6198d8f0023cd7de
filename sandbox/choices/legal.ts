import { endpoints, RENAMABLE_BODIES, type Profile } from '../../contract/index.ts';
import { SPEC_NAMED } from './bodies.ts';

// The rules of the spec a drawn profile must keep to be a correct service's choices: where
// the spec states something, a choice may not contradict it. Each rule one small function
// returning its breaches ("expected … / received …"); the generator's test runs them over
// many seeds.

/** Part 7's codes and their statuses: a code the spec names keeps its status. */
export const SPEC_CODES: Record<string, number> = {
  invalid_request: 400, authentication_failed: 401, insufficient_funds: 400, position_not_found: 404, rate_limit_exceeded: 429, internal_error: 500,
};
/** Part 2's field names: a renamed field may not take one of them, since part 2 gives each its type (a drawn name never reuses one). */
const PART2_FIELDS = ['amount', 'totalLent', 'totalBorrowed', 'projectedReturn', 'accruedInterest', 'borrowAmount', 'rate', 'lendRate', 'borrowRate', 'spread', 'createdAt', 'matchedAt', 'timestamp', 'positionId', 'userId', 'asset', 'borrowAsset', 'status', 'type', 'maturity', 'autoRollover', 'autoRefinance', 'events', 'secret', 'cbt', 'nextCursor', 'hasMore', 'positions', 'markets', 'collateral'];
const ID_LIKE = /(^id$|Id$|_id$)/;
const DURATION = /^[1-9]\d*d$/;
const DECIMAL = /^\d+(\.\d+)?$/;

type Rule = (p: Profile) => string[];

const specCodesKeepStatus: Rule = (p) => {
  const choices = { ...p.errors, repayOnLend: p.lifecycle.repayOnLend } as Record<string, unknown>;
  return Object.entries(choices).flatMap(([k, v]) => {
    const c = v as { code?: string; status?: number };
    if (typeof c !== 'object' || !c.code || !(c.code in SPEC_CODES) || SPEC_CODES[c.code] === c.status) return [];
    return [`${k}: expected ${c.code} with status ${SPEC_CODES[c.code]} (part 7) / received ${c.status}`];
  });
};

const successIs2xx: Rule = (p) =>
  Object.entries(p.successStatus).filter(([, s]) => s !== null && (s < 200 || s > 299)).map(([k, s]) => `successStatus.${k}: expected 2xx / received ${s}`);

const ratesPathFree: Rule = (p) => {
  const taken = endpoints({ ...p, ratesPath: '/rates-placeholder' }).filter((e) => e.id !== 'rates.get').map((e) => e.path);
  return p.ratesPath === null || taken.includes(p.ratesPath) ? [`ratesPath: expected a path no other endpoint has / received ${p.ratesPath}`] : [];
};

const lifecycleHolds: Rule = (p) => {
  const t = p.lifecycle.transitions;
  const out: string[] = [];
  // Part 3: a new lend order is pending; a matched one is active; cancel applies to an unmatched order.
  if (!t.pending?.includes('active')) out.push('transitions: expected pending → active (part 3) / received none');
  if (!p.lifecycle.cancellable.includes('pending') || p.lifecycle.cancellable.includes('active')) out.push(`cancellable: expected the unmatched (pending) only / received ${p.lifecycle.cancellable.join(',')}`);
  if (!t.active?.includes(p.lifecycle.statusAfterFullRepay)) out.push(`statusAfterFullRepay: expected a state active leads to / received ${p.lifecycle.statusAfterFullRepay}`);
  if (!p.markets.maturities.includes(p.lifecycle.defaultMaturity)) out.push(`defaultMaturity: expected one of the markets' maturities / received ${p.lifecycle.defaultMaturity}`);
  return out;
};

const marketsHold: Rule = (p) => [
  ...p.markets.maturities.filter((m) => !DURATION.test(m)).map((m) => `markets.maturities: expected durations such as 30d (part 2) / received ${m}`),
  ...(p.markets.periods === null || p.markets.defaultPeriod === null || p.markets.periods.includes(p.markets.defaultPeriod) ? [] : [`markets.defaultPeriod: expected one of periods / received ${p.markets.defaultPeriod}`]),
];

const amountsAreDecimals: Rule = (p) => {
  const a = p.amounts as unknown as Record<string, string | null>;
  // null: unknown (a detected profile's minCollateralRatio), no rule to hold; pledgeTaken is a record (its schema types it).
  const out = Object.entries(a).filter(([, v]) => typeof v === 'string' && !DECIMAL.test(v)).map(([k, v]) => `amounts.${k}: expected a decimal string / received ${v}`);
  if (a.minCollateralRatio !== null && Number(a.liquidationRatio) >= Number(a.minCollateralRatio)) out.push(`amounts.liquidationRatio: expected below minCollateralRatio ${a.minCollateralRatio} / received ${a.liquidationRatio}`);
  if (Number(a.minOrder) > Number(a.maxOrder)) out.push(`amounts.minOrder: expected at most maxOrder / received ${a.minOrder}`);
  return out;
};

/** Renames: only not-shown bodies; an id stays findable as an id; no name the spec gives changes. */
const renamesKeepIdsAndSpecNames: Rule = (p) =>
  Object.entries(p.bodies.fieldNames).flatMap(([key, names]) => [
    ...(RENAMABLE_BODIES.includes(key as (typeof RENAMABLE_BODIES)[number]) ? [] : [`bodies.fieldNames.${key}: expected a body the spec does not show / received ${key}`]),
    ...Object.entries(names ?? {}).flatMap(([from, to]) => [
      ...(ID_LIKE.test(from) && !ID_LIKE.test(to) ? [`bodies.fieldNames.${key}.${from}: expected an id-like name (id, …Id, …_id) / received ${to}`] : []),
      ...(PART2_FIELDS.includes(to) ? [`bodies.fieldNames.${key}.${from}: expected a name part 2 does not give a type / received ${to}`] : []),
      ...(SPEC_NAMED.includes(from) || SPEC_NAMED.includes(to) ? [`bodies.fieldNames.${key}.${from}: expected no name the spec gives / received ${from} → ${to}`] : []),
    ]),
  ]);

const webhooksReachable: Rule = (p) => (p.webhooks.allowLoopbackHttp ? [] : ['webhooks.allowLoopbackHttp: expected true (lendcheck\'s receivers listen on loopback) / received false']);

export const LEGAL_RULES: Record<string, Rule> = {
  specCodesKeepStatus, successIs2xx, ratesPathFree, lifecycleHolds, marketsHold, amountsAreDecimals, renamesKeepIdsAndSpecNames, webhooksReachable,
};

/** Every breach of the spec's rules in a profile, by rule; empty when the profile is legal. */
export function legalityProblems(p: Profile): string[] {
  return Object.entries(LEGAL_RULES).flatMap(([name, rule]) => rule(p).map((m) => `${name}: ${m}`));
}
