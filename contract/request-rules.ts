import { EVENT_TYPES, LEND_ASSETS, LEND_MODES, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, ORDERBOOK_DEPTH_DEFAULT, POSITION_STATUSES, POSITION_TYPES } from './constants.ts';
import type { Profile } from './profile.ts';

// What the spec binds on each request field and query parameter that a zod schema does not
// carry by itself: the requirement it comes from, the part 8 defaults and maxima, and, for an
// enum, the values valid ELSEWHERE in the spec (its neighbours). conformance/cases.ts derives
// every edge case from this table and the endpoint schemas; its test fails when a field the
// schemas constrain has no row here or no generated case, so a new rule is covered by adding
// a row, never a check.

/**
 * Sets of values the spec names, each in a family: an enum's neighbours are the other sets of
 * its family (a lend asset's are the collateral assets; a type filter's are the statuses).
 */
export interface ValueSet {
  name: string;
  family: 'asset' | 'list-filter' | 'mode' | 'event';
  values: readonly string[];
  /** Where the spec (or the profile, for the lists it leaves open) names them. */
  source: string;
}

export const SPEC_VALUE_SETS: readonly ValueSet[] = [
  { name: 'lend assets', family: 'asset', values: LEND_ASSETS, source: 'part 2: lend asset "One of USDC, USDT, DAI"' },
  { name: 'collateral examples', family: 'asset', values: ['ETH', 'USDC'], source: 'part 2: collateral.asset "ETH and USDC are given as examples"' },
  { name: 'position statuses', family: 'list-filter', values: POSITION_STATUSES, source: 'part 3: status values named by the list filter' },
  { name: 'position types', family: 'list-filter', values: POSITION_TYPES, source: 'part 2: type `lend` or `borrow`' },
  { name: 'lend modes', family: 'mode', values: LEND_MODES, source: 'part 2: mode `easy` or `advanced`' },
  { name: 'event types', family: 'event', values: EVENT_TYPES, source: 'part 6: event types' },
];

/** The spec's sets plus the asset lists the profile records for what the spec leaves open (collateral, borrow). */
export function valueSets(profile: Profile): ValueSet[] {
  return [
    ...SPEC_VALUE_SETS,
    { name: 'collateral assets (profile assets.collateral)', family: 'asset', values: profile.assets.collateral, source: 'part 2: "the full list of allowed collateral and borrow assets: not shown"' },
    { name: 'borrow assets (profile assets.borrow)', family: 'asset', values: profile.assets.borrow, source: 'part 2: "the full list of allowed collateral and borrow assets: not shown"' },
  ];
}

/** The set an enum's options are, if the spec names it. */
export const valueSetOf = (options: readonly string[]): ValueSet | undefined =>
  SPEC_VALUE_SETS.find((v) => v.values.length === options.length && options.every((o) => v.values.includes(o)));

/** Values valid elsewhere in the spec (same family, another set), not among the enum's options; sorted, once each. */
export function neighbours(options: readonly string[], profile: Profile): string[] {
  const own = valueSetOf(options);
  if (!own) return [];
  const near = valueSets(profile).filter((v) => v.family === own.family && v.name !== own.name).flatMap((v) => v.values);
  return [...new Set(near)].filter((v) => !options.includes(v)).sort();
}

export interface RequestRule {
  /** Endpoint id (contract/endpoints.ts). */
  endpoint: string;
  where: 'body' | 'query';
  /** Dotted path in the body, or the parameter's name. */
  field: string;
  /** The requirement ids (contract/requirements.ts) the field's rule comes from. */
  requirements: string[];
  /** Part 8's default, where one is given. */
  default?: number;
  /** Part 8's maximum, where one is given; what a larger value does is the profile's (`overMax`). */
  max?: number;
  /** The profile option that says what a value over the maximum gets (the spec: not shown). */
  overMax?: string;
  /** A "string filter" (part 4): a value it refuses may also be read as matching nothing. */
  filter?: boolean;
}

const body = (endpoint: string, requirements: Record<string, string[]>): RequestRule[] =>
  Object.entries(requirements).map(([field, reqs]) => ({ endpoint, where: 'body', field, requirements: reqs }));

export const REQUEST_RULES: readonly RequestRule[] = [
  ...body('lend.create', {
    userId: ['FIELD-lend-userId'],
    asset: ['FIELD-lend-asset'],
    amount: ['FIELD-lend-amount', 'CONV-amount-decimal'],
    rate: ['FIELD-lend-rate', 'CONV-rate-fraction'],
    maturity: ['FIELD-lend-maturity', 'CONV-maturity-input'],
    mode: ['FIELD-lend-mode'],
    autoRollover: ['FIELD-lend-autoRollover'],
  }),
  ...body('borrow.create', {
    userId: ['FIELD-borrow-userId'],
    collateral: ['FIELD-borrow-collateral'],
    'collateral.asset': ['FIELD-borrow-collateral'],
    'collateral.amount': ['FIELD-borrow-collateral', 'CONV-amount-decimal'],
    borrowAsset: ['FIELD-borrow-borrowAsset'],
    borrowAmount: ['FIELD-borrow-borrowAmount', 'CONV-amount-decimal'],
    rate: ['FIELD-borrow-rate', 'CONV-rate-fraction'],
    maturity: ['FIELD-borrow-maturity', 'CONV-maturity-input'],
    autoRefinance: ['FIELD-borrow-autoRefinance'],
  }),
  ...body('user.withdraw', { asset: ['EP-withdraw'], amount: ['EP-withdraw', 'CONV-amount-decimal'], destination: ['EP-withdraw'] }),
  ...body('position.repay', { amount: ['EP-repay', 'CONV-amount-decimal'] }),
  ...body('position.patch', { autoRollover: ['EP-patch'], autoRefinance: ['EP-patch'] }),
  ...body('webhooks.create', { url: ['EP-webhooks', 'HOOK-subscription'], events: ['EP-webhooks', 'HOOK-event-types'], secret: ['EP-webhooks', 'HOOK-secret-prefix'] }),
  { endpoint: 'positions.list', where: 'query', field: 'status', requirements: ['QUERY-list-status', 'STATE-status-values', 'PAGE-filters'] },
  { endpoint: 'positions.list', where: 'query', field: 'type', requirements: ['QUERY-list-type', 'PAGE-filters'] },
  { endpoint: 'positions.list', where: 'query', field: 'limit', requirements: ['PAGE-limit-applied', 'PAGE-limit-default', 'PAGE-limit-max'], default: LIST_LIMIT_DEFAULT, max: LIST_LIMIT_MAX, overMax: 'pagination.overMax' },
  { endpoint: 'orderbook.get', where: 'query', field: 'depth', requirements: ['BOOK-depth', 'BOOK-depth-default'], default: ORDERBOOK_DEPTH_DEFAULT, overMax: 'bounds.orderbookMaxDepth' },
  // Part 2's maturity forms bind the order bodies (issue 47's bindings); the book's is a "string filter".
  { endpoint: 'orderbook.get', where: 'query', field: 'maturity', requirements: ['BOOK-maturity-filter'], filter: true },
];

export function requestRule(endpoint: string, where: 'body' | 'query', field: string): RequestRule | undefined {
  return REQUEST_RULES.find((r) => r.endpoint === endpoint && r.where === where && r.field === field);
}
