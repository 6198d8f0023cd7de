import { LEND_ASSETS, LIST_LIMIT_MAX } from '../constants.ts';
import type { Endpoint } from '../endpoints.ts';
import { marketId, type Profile } from '../profile.ts';
import { SPEC_EXAMPLE_PERIOD } from '../profile-markets.ts';

// What zod's JSON Schema export cannot say on its own: the profile's closed lists (assets,
// maturities, periods), one-of-several-fields rules, the error statuses each operation can
// answer, and links from a created resource to the operations on it. Without these an
// OpenAPI consumer (Schemathesis, Prism, a client generator) learns a looser contract than
// the one a service under this profile enforces.

type Json = Record<string, unknown>;

const POSITIVE_DECIMAL = '^(?:[1-9][0-9]*(?:\\.[0-9]+)?|0\\.[0-9]*[1-9][0-9]*)$';
const ISO_DATE = '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$';

/** Assets with an order book: the lendable ones plus the profile's borrow list. */
/** The schema extension listing request fields whose requiredness part 4 leaves open (the profile's choice). */
export const OPEN_REQUIRED = 'x-lendcheck-open-required';

export const marketAssets = (p: Profile) => [...new Set<string>([...LEND_ASSETS, ...p.assets.borrow])];
const known = (p: Profile, list: string[]) => list.filter((a) => p.assets.info?.[a] !== undefined);
/** The assets whose precision the profile knows (none where assets.info is unknown: the document then names no list it does not know). */
const infoAssets = (p: Profile) => Object.keys(p.assets.info ?? {});
const assetIn = (list: string[]) => (list.length ? assetEnum(list) : { type: 'string' });
const assetEnum = (list: string[]) => ({ type: 'string', enum: list });
const maturityEnum = (p: Profile) => ({ type: 'string', enum: [...p.markets.maturities] });

/** A request maturity: one of the markets, or an ISO date (which must lie after the server's today). */
const maturityInput = (p: Profile) => ({
  anyOf: [maturityEnum(p), { type: 'string', format: 'date', pattern: ISO_DATE, description: 'ISO date after the server\'s current date; mapped to a market' }],
});

/**
 * A positive amount with at most `decimals` places, inside [min, max] when the bounds are
 * simple enough to say as a pattern (min 1, max a power of ten: the default profile);
 * otherwise only the places are said and the bounds stay in the description.
 */
export function amountPattern(decimals: number, min?: string, max?: string): string {
  const frac = (d: string) => (decimals > 0 ? `(?:\\.${d}{1,${decimals}})?` : '');
  const k = max && /^10*$/.test(max) ? max.length - 1 : undefined;
  if (min === '1' && k !== undefined && k > 0) return `^(?:[1-9][0-9]{0,${k - 1}}${frac('[0-9]')}|${max}${frac('0')})$`;
  const small = decimals > 0 && min !== '1' ? `|0\\.(?:${Array.from({ length: decimals }, (_, i) => `${'0'.repeat(i)}[1-9][0-9]{0,${decimals - 1 - i}}`).join('|')})` : '';
  return `^(?:[1-9][0-9]*${frac('[0-9]')}${small})$`;
}

/** allOf of "if <assetField> is X then <amountField> has X's places (and the bounds)". */
function perAsset(p: Profile, assets: string[], assetAt: string[], amountAt: string[], bounds?: { min?: string; max?: string }): Json[] {
  const nest = (path: string[], leaf: Json): Json => {
    const [head, ...rest] = path;
    return { properties: { [head]: rest.length ? nest(rest, leaf) : leaf }, ...(rest.length ? { required: [head] } : { required: [head] }) };
  };
  return assets.map((a) => ({
    if: nest(assetAt, { const: a }),
    then: nest(amountAt, { type: 'string', pattern: amountPattern(p.assets.info?.[a]?.decimals ?? 0, bounds?.min, bounds?.max) }),
  }));
}

const props = (schema: Json | undefined) => (schema?.properties ?? {}) as Record<string, Json>;
const set = (schema: Json | undefined, name: string, value: Json) => {
  const p = props(schema);
  if (p[name]) p[name] = { ...value, ...(p[name].description ? { description: p[name].description } : {}) };
};
const positive = (schema: Json | undefined, name: string) => {
  const p = props(schema);
  if (p[name]) p[name] = { ...p[name], pattern: POSITIVE_DECIMAL };
};

/** Narrows a request body schema to the profile's closed lists. */
export function exactBody(p: Profile, e: Endpoint, body: Json): Json {
  switch (e.id) {
    case 'lend.create':
      set(body, 'asset', assetEnum([...LEND_ASSETS]));
      positive(body, 'amount');
      set(body, 'maturity', { ...maturityInput(p), default: p.lifecycle.defaultMaturity });
      return {
        ...body,
        allOf: [
          // Advanced mode has no quote to fall back on, so it needs a rate.
          { if: { properties: { mode: { const: 'advanced' } }, required: ['mode'] }, then: { required: ['rate'] } },
          ...perAsset(p, known(p, [...LEND_ASSETS]), ['asset'], ['amount'], { min: p.amounts.minOrder, max: p.amounts.maxOrder }),
        ],
      };
    case 'borrow.create':
      set(body, 'borrowAsset', assetIn(known(p, p.assets.borrow)));
      set(props(body).collateral, 'asset', assetIn(known(p, p.assets.collateral)));
      positive(props(body).collateral, 'amount');
      positive(body, 'borrowAmount');
      set(body, 'maturity', { ...maturityInput(p), default: p.lifecycle.defaultMaturity });
      if (props(body).autoRefinance) props(body).autoRefinance = { ...props(body).autoRefinance, default: p.lifecycle.autoRefinanceDefault };
      {
        // With assets.info unknown no asset has a known precision, and an empty allOf is not valid OpenAPI.
        const perAssetRules = [
          ...perAsset(p, known(p, p.assets.borrow), ['borrowAsset'], ['borrowAmount'], { min: p.amounts.minOrder, max: p.amounts.maxOrder }),
          ...perAsset(p, known(p, p.assets.collateral), ['collateral', 'asset'], ['collateral', 'amount']),
        ];
        return perAssetRules.length ? { ...body, allOf: perAssetRules } : body;
      }
    case 'user.withdraw':
      set(body, 'asset', assetIn(infoAssets(p)));
      set(body, 'destination', { type: 'string', pattern: p.withdrawals.destinationPattern });
      positive(body, 'amount');
      return infoAssets(p).length ? { ...body, allOf: perAsset(p, infoAssets(p), ['asset'], ['amount'], { min: p.amounts.minWithdrawal }) } : body;
    case 'position.repay':
      positive(body, 'amount');
      return body;
    case 'position.patch':
      // Either flag alone is a change; an empty object is not.
      return { ...body, minProperties: 1, anyOf: [{ required: ['autoRollover'] }, { required: ['autoRefinance'] }] };
    case 'webhooks.create':
      // Part 4: "whether optional or required: not shown"; the profile says which, and the document
      // names the field as one whose requiredness is open, so that a target documenting the other
      // choice is a note beside it, never a contradiction (cli/gate/openapi-diff.ts).
      return { ...(p.webhooks.secretRequired ? { ...body, required: [...new Set([...((body.required as string[]) ?? []), 'secret'])] } : body), [OPEN_REQUIRED]: ['secret'] };
    case 'sandbox.fund':
      set(body, 'asset', assetIn(infoAssets(p)));
      positive(body, 'amount');
      return infoAssets(p).length ? { ...body, allOf: perAsset(p, infoAssets(p), ['asset'], ['amount']) } : body;
    case 'sandbox.oracle':
      set(body, 'asset', assetIn(infoAssets(p)));
      positive(body, 'priceUsd');
      return body;
    case 'sandbox.trigger':
      // A withdrawal event is about no position.
      return { ...body, if: { properties: { type: { const: 'withdrawal.completed' } }, required: ['type'] }, then: { not: { required: ['positionId'] } } };
    default:
      return body;
  }
}

/** Narrows a query parameter's schema. */
export function exactQuery(p: Profile, e: Endpoint, name: string, schema: Json): Json {
  if (name === 'period') return periodSchema(p);
  if (name === 'maturity' && (e.id === 'orderbook.get' || e.id === 'public.rateSeries')) return maturityEnum(p);
  if (name === 'asset' && e.id === 'public.rateSeries') return assetEnum(marketAssets(p));
  // An integer from 1; the spec's maximum of 100 only where the target refuses more (pagination.overMax
  // reject): a clamping target takes any limit, so the document states no maximum.
  if (name === 'limit' && e.id === 'positions.list') return { type: 'integer', minimum: 1, ...(p.pagination.overMax === 'reject' ? { maximum: LIST_LIMIT_MAX } : {}) };
  // An integer from 1, at most the profile's maximum where it states one (else none: the spec gives none).
  if (name === 'depth' && e.id === 'orderbook.get') return { type: 'integer', minimum: 1, ...(p.bounds.orderbookMaxDepth !== null ? { maximum: p.bounds.orderbookMaxDepth } : {}) };
  if (name === 'cursor') return { ...schema, description: 'Opaque: only a nextCursor this list returned (with the same filters) is valid' };
  return schema;
}

/** The shared order-book path segment: an asset (with a key) or a market id (without). */
export function orderbookSegment(p: Profile): Json {
  const ids = marketAssets(p).flatMap((a) => p.markets.maturities.map((m) => marketId(p, a, m)));
  return {
    anyOf: [assetEnum(marketAssets(p)), { type: 'string', enum: ids }],
    description: `With a key: an asset (${marketAssets(p).join(', ')}) or a market id. Without: a market id (asset${p.markets.idSeparator}maturity).`,
  };
}

/** Every error status the operation can answer under the profile, with the codes behind it. */
export function errorStatuses(p: Profile, e: Endpoint): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const add = (status: number, code: string) => out.set(status, [...new Set([...(out.get(status) ?? []), code])]);
  const hasInput = e.body !== undefined || e.query !== undefined || e.params !== undefined;
  if (hasInput) add(400, 'invalid_request');
  if (['lend.create', 'borrow.create', 'user.withdraw', 'position.repay'].includes(e.id)) add(400, 'insufficient_funds');
  if (e.body) {
    add(p.errors.unsupportedMediaType.status, p.errors.unsupportedMediaType.code);
    add(p.errors.payloadTooLarge.status, p.errors.payloadTooLarge.code);
  }
  if (e.access !== 'public') add(401, 'authentication_failed');
  if (e.path.includes('{positionId}') || e.id === 'sandbox.trigger') add(404, 'position_not_found');
  if (e.id === 'positions.list' && p.errors.unknownUser === 'position_not_found') add(404, 'position_not_found');
  if (['position.repay', 'position.cancel', 'position.patch'].includes(e.id)) add(p.errors.invalidState.status, p.errors.invalidState.code);
  if (e.id === 'position.repay') add(p.lifecycle.repayOnLend.status, p.lifecycle.repayOnLend.code);
  if (['lend.create', 'borrow.create', 'orderbook.get', 'public.rateSeries', 'user.withdraw', 'sandbox.fund', 'sandbox.oracle'].includes(e.id)) {
    add(p.errors.unsupportedAsset.status, p.errors.unsupportedAsset.code);
  }
  if (['webhooks.delete', 'public.vault', 'public.orderbook', 'orderbook.get', 'sandbox.attempts', 'sandbox.resend', 'sandbox.webhook.pause', 'sandbox.webhook.resume'].includes(e.id)) {
    add(p.errors.unknownRoute.status, p.errors.unknownRoute.code);
  }
  add(429, 'rate_limit_exceeded');
  add(500, 'internal_error');
  return out;
}

const positionOps = {
  GetPosition: 'position.get',
  CancelPosition: 'position.cancel',
  RepayPosition: 'position.repay',
  PatchPosition: 'position.patch',
};

/**
 * Links from a created resource's id to the operations that use it (Schemathesis' stateful
 * phase follows them). Only from fields the response schema requires: the spec's (the lend
 * answer's positionId and userId), the id field the profile names, or lendcheck's own
 * controls. None from the borrow answer, which the spec does not show (a field the profile
 * records was seen once, not promised), and none that reads a field a page may lack: the
 * list's nextCursor is absent (or null) on the last page, and a link whose expression cannot
 * resolve is an error, so there is no NextPage link (the conformance suite walks cursors).
 */
export function linksOf(p: Profile, e: Endpoint, ids: Set<string>): Json | undefined {
  const byId = (map: Record<string, [string, Json]>) => {
    const out: Json = {};
    for (const [name, [operationId, parameters]] of Object.entries(map)) if (ids.has(operationId)) out[name] = { operationId, parameters };
    return Object.keys(out).length ? out : undefined;
  };
  const toPositions = () => ({
    ...Object.fromEntries(Object.entries(positionOps).map(([k, v]) => [k, [v, { positionId: '$response.body#/positionId' }] as [string, Json]])),
    ListUserPositions: ['positions.list', { userId: '$response.body#/userId' }] as [string, Json],
  });
  switch (e.id) {
    case 'lend.create':
      return byId(toPositions());
    case 'webhooks.create':
      return p.ids.webhook ? byId({ DeleteWebhook: ['webhooks.delete', { webhookId: `$response.body#/${p.ids.webhook}` }] }) : undefined;
    case 'sandbox.trigger':
      return byId({ EventAttempts: ['sandbox.attempts', { eventId: '$response.body#/eventId' }] });
    case 'sandbox.fund':
      return byId({ Balances: ['sandbox.balances', { userId: '$response.body#/userId' }] });
    default:
      return undefined;
  }
}

/**
 * The `period` parameter: the profile's periods and default where it knows them. Unknown (null, a
 * detected profile that could not read them), the document lists none and states no default: it
 * never promises the sandbox's periods (issue 47), only the spec's example form.
 */
function periodSchema(p: Profile): Json {
  const { periods, defaultPeriod } = p.markets;
  const dflt = defaultPeriod !== null && (periods === null || periods.includes(defaultPeriod)) ? { default: defaultPeriod } : {};
  return periods === null ? { type: 'string', example: SPEC_EXAMPLE_PERIOD, ...dflt } : { type: 'string', enum: [...periods], ...dflt };
}
