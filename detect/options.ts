import { defaultProfile, endpoints, profileSchema, successKey, webhookDeletable, type Profile } from '../contract/index.ts';

// Every profile option as a dotted name (a record's entries one by one, e.g.
// `successStatus.POST /lend`), and reading/writing one in a profile-shaped object.

export const RECORDS = ['successStatus', 'publicEnvelope'];

type Shape = Record<string, { _zod: { def: { innerType?: { shape?: Record<string, unknown> }; type: string } } }>;

export function profileOptions(): string[] {
  const out: string[] = [];
  const shape = profileSchema.shape as unknown as Shape;
  for (const [k, v] of Object.entries(defaultProfile as Record<string, unknown>)) {
    if (RECORDS.includes(k)) out.push(...Object.keys(v as object).map((e) => `${k}.${e}`));
    else if (v && typeof v === 'object' && !Array.isArray(v)) {
      const fields = new Set([...Object.keys(v), ...Object.keys(shape[k]?._zod.def.innerType?.shape ?? {})]);
      out.push(...[...fields].map((f) => `${k}.${f}`));
    } else out.push(k);
  }
  return out;
}

function split(option: string): [string, string | undefined] {
  const i = option.indexOf('.');
  return i < 0 ? [option, undefined] : [option.slice(0, i), option.slice(i + 1)];
}

export function getOption(p: Profile | Record<string, unknown>, option: string): unknown {
  const [a, b] = split(option);
  const top = (p as Record<string, unknown>)[a];
  return b === undefined ? top : (top as Record<string, unknown> | undefined)?.[b];
}

export function setOption(p: Record<string, unknown>, option: string, value: unknown): void {
  const [a, b] = split(option);
  if (b === undefined) p[a] = value;
  else ((p[a] ??= {}) as Record<string, unknown>)[b] = value;
}

/** Equal as profile values: lists of names compare as sets, decimals by value, records entry by entry. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameValue(a[k], b[k]));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && [...a].map(String).sort().join('\u0000') === [...b].map(String).sort().join('\u0000');
  if (typeof a === 'string' && typeof b === 'string' && /^-?\d+(\.\d+)?$/.test(a) && /^-?\d+(\.\d+)?$/.test(b)) return Number(a) === Number(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why an option is never probed: each needs something a bounded probe cannot have. */
export const UNDETECTABLE: Record<string, string> = {
  name: 'a label, not a behaviour',
  orderbookPath: 'one choice only',
  'limits.burstMeaning': 'one choice only',
  'limits.tierAssignment': 'one choice only',
  'limits.publicScope': 'one choice only',
  'keys.issuance': 'one choice only',
  'versioning.deprecationPolicy': 'one choice only',
  'signature.toleranceSeconds': 'a sender\'s replay window does not show in its deliveries (it is the receiver\'s to enforce)',
  'events.emitted': 'needs every event type, and maturity, rollover and liquidation need time travel or price moves',
  'funding.userIds': 'the user\'s own setting (users the target funds)',
  'funding.request': 'the user\'s own setting (how the target funds a user)',
  'consistency.readAfterWrite': 'a stale read may or may not show in a bounded probe; an eventually consistent target says so itself',
  'webhooks.requireHttps': 'a requirement the user states (what the target must refuse), not a behaviour: the authorization matrix reports what it accepts either way',
  'webhooks.refuseInternalAddresses': 'a requirement the user states (what the target must refuse), not a behaviour: the authorization matrix reports what it accepts either way',
  'access.foreignStatus': 'read by the authorization matrix itself: a 404 or a 403 to another partner\'s object is never a failure, the other one of the two a profile note',
  'bodies.fieldNames': 'the sandbox\'s way to play another implementation\'s names; of a target, detection records the fields it sent as `responses`',
  'consistency.convergenceMs': 'only meaningful under readAfterWrite eventual, which is not probed',
};

/**
 * Values the spec leaves open that some check builds a request on: undetected, a detected profile
 * records them as unknown (null), and what needs one skips naming it (contract/unknown-option.ts),
 * never sending the sandbox's default in their place (issue 47, mutator seed 28: a ratio of 2.97
 * refused the default's pledges).
 */
export const UNKNOWN_IF_UNDETECTED = [
  'amounts.minCollateralRatio', 'orderbookLevels.lends', 'orderbookLevels.borrows',
  // No delivery seen (a Starter budget spent first): the delivery checks verify under the known
  // variant the signature matches, or skip (conformance/hooks/verify-delivery.ts), never the default.
  'signature.scheme',
  // Part 7 calls error.details optional: undetected, details left out are noted, never failed.
  'errors.insufficientFundsDetails',
];

/** Bounds the spec does not give: undetected, a detected profile states none (null) rather than the sandbox's default. */
export const UNSTATED_BOUNDS = ['bounds.rateBelow', 'bounds.orderbookMaxDepth', 'webhooks.secretMinLength'];

/**
 * Market data the spec does not give, unknown (null) when undetected as UNKNOWN_IF_UNDETECTED:
 * the assets' prices and decimals (a borrow's pledge at the minimum ratio is priced by them; the
 * sandbox's ETH at 3000 against a target's 1000 under-pledges by three) and the analytics periods
 * (the sandbox's five would be asserted of a target offering others; the reads send the spec's
 * example 30d instead, a refusal of it a skip naming markets.periods).
 */
export const UNKNOWN_MARKET_DATA = ['assets.info', 'markets.periods', 'markets.defaultPeriod'];

/**
 * Every success status of the interface, as the profile's successStatus keys (public reads
 * included). Part 4: "Success status codes: not shown": one detection did not see is unknown
 * (null) in a detected profile, never the default asserted in its place (issue 47: a withdrawal
 * refused below the minimum left the default 202 to fail a target documenting its own 200).
 */
export function successStatusKeys(): string[] {
  return endpoints(defaultProfile).filter((e) => e.access !== 'sandbox').map(successKey);
}

/** The detected successStatus record: what was seen, every other status unknown (null). */
export function detectedStatuses(found: (option: string) => unknown): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const k of successStatusKeys()) {
    const v = found(`successStatus.${k}`);
    out[k] = typeof v === 'number' ? v : null;
  }
  return out;
}

/** Why an option has no meaning under a profile (an endpoint it sets is not served), or undefined. */
export function inapplicable(p: Profile, option: string): string | undefined {
  if (p.ratesPath === null && option === 'successStatus.GET /rates') return 'not known (ratesPath is unknown)';
  if (!p.webhooks.listAndDelete && option === 'successStatus.GET /webhooks') return 'not served (webhooks.listAndDelete is false)';
  if (!webhookDeletable(p) && option === 'successStatus.DELETE /webhooks/{webhookId}') return 'not served (webhooks.listAndDelete and webhooks.deleteWithoutList are false)';
  if (p.webhooks.listAndDelete && option === 'webhooks.deleteWithoutList') return 'the list is served, and the delete with it (webhooks.listAndDelete)';
  return undefined;
}
