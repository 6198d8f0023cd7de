import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { EVENT_TYPES, TIER_NAMES } from './constants.ts';
import { assetInfoSchema, DEFAULT_ASSET_INFO } from './asset-info.ts';
import { doc } from './profile-doc.ts';
import { fundingOptions, idsOptions } from './profile-target.ts';
import { signatureOptions, webhooksOptions } from './profile-webhooks.ts';
import { accessOptions } from './profile-access.ts';
import { requestsOptions } from './profile-requests.ts';
import { bodiesOptions } from './profile-bodies.ts';
import { marketsOptions } from './profile-markets.ts';
import { orderbookLevelsOptions } from './profile-orderbook.ts';
import { ROUTES, type RouteId } from './routes.ts';

// Every point the spec marks "not shown" is an option here. Each option carries the
// spec text it answers (`spec`) and why the default was chosen (`reason`). The sandbox
// implements the defaults; the suites read the same object, so a user's profile file
// changes both sides at once. Nothing open in the spec is hard-coded elsewhere.

/** JSON types a recorded response field can have. */
export const JSON_FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

const endpointKey = z.string().regex(/^(GET|POST|PATCH|DELETE|PUT) \/\S*$/);
const errorChoice = z.object({ code: z.string().min(1), status: z.number().int().min(400).max(599) });

// The defaults of two records keyed as a profile file keys them ("METHOD path" and a public
// path), built from the route list (routes.ts) so no path is restated here.
const endpointKeyOf = (id: RouteId): string => `${ROUTES[id].method} ${ROUTES[id].path}`;

/** 201 for creations, 202 for a withdrawal that completes later, 200 otherwise (keyed endpoints). */
const SUCCESS_BY_ENDPOINT: [RouteId, number][] = [
  ['lend.create', 201], ['borrow.create', 201], ['position.get', 200], ['positions.list', 200],
  ['position.repay', 200], ['position.cancel', 200], ['position.patch', 200], ['user.withdraw', 202],
  ['rates.get', 200], ['orderbook.get', 200], ['webhooks.create', 201], ['webhooks.list', 200], ['webhooks.delete', 200],
];

export const SUCCESS_STATUS_DEFAULTS: Record<string, number> = Object.fromEntries(SUCCESS_BY_ENDPOINT.map(([id, status]) => [endpointKeyOf(id), status]));

/** Bare where the spec shows a bare example, {data, timestamp} elsewhere (public endpoints). */
const ENVELOPE_BY_ENDPOINT: [RouteId, 'bare' | 'data'][] = [
  ['public.markets', 'bare'], ['public.orderbook', 'bare'], ['public.rates', 'data'], ['public.tvl', 'data'],
  ['public.volume', 'data'], ['public.rateSeries', 'data'], ['public.vaults', 'data'], ['public.vault', 'data'],
];

export const PUBLIC_ENVELOPE_DEFAULTS: Record<string, 'bare' | 'data'> = Object.fromEntries(ENVELOPE_BY_ENDPOINT.map(([id, form]) => [ROUTES[id].path, form]));

export const profileSchema = z.object({
  name: z.string().default('lendcheck-default'),

  successStatus: doc(z.record(endpointKey, z.number().int().min(200).max(299).nullable()).default(SUCCESS_STATUS_DEFAULTS), {
    spec: 'Part 4: "Success status codes: not shown."',
    reason: '201 for creations, 202 for a withdrawal that completes later, 200 otherwise: the usual REST reading. null: unknown (a detected profile that did not see the endpoint succeed), so any 2xx is the target\'s own choice and nothing is asserted of it.',
  }),
  ratesPath: doc(z.string().regex(/^\/\S+$/).nullable().default(ROUTES['rates.get'].path), {
    spec: 'Part 4: "Get-rates path: not shown."',
    reason: 'A top-level /rates beside /markets; the public /markets/rates stays separate. null: the path is unknown (detection found it neither among its candidates nor in the target\'s own OpenAPI document), so nothing is asserted of it and the rates checks skip, saying so.',
  }),
  publicEnvelope: doc(z.record(z.string(), z.enum(['bare', 'data'])).default(PUBLIC_ENVELOPE_DEFAULTS), {
    spec: 'Part 4: "which form applies to each endpoint: not shown" (bare object or {data, timestamp}).',
    reason: 'Bare where the spec shows a bare example (market list, order book), the stated {data, timestamp} elsewhere.',
  }),
  orderbookPath: doc(z.enum(['shared-by-auth']).default('shared-by-auth'), {
    spec: 'Part 4: /markets/{asset}/orderbook (authenticated) and /markets/{id}/orderbook (public) share one path.',
    reason: 'One path: a request with a Bearer key gets the authenticated variant, one without gets the public one.',
  }),
  orderbookLevels: orderbookLevelsOptions,

  signature: signatureOptions,
  webhooks: webhooksOptions,
  access: accessOptions,
  bodies: bodiesOptions,

  limits: z
    .object({
      burstMeaning: doc(z.enum(['bucket-capacity']).default('bucket-capacity'), {
        spec: 'Part 8: "Meaning of burst ... not shown."',
        reason: 'Token bucket: a full bucket holds `burst` tokens and refills at the per-minute rate.',
      }),
      limitHeader: doc(z.enum(['burst', 'per-minute']).default('burst'), {
        spec: 'Part 8: the value of X-RateLimit-Limit under a burst allowance: not shown.',
        reason: 'The bucket capacity, so that Remaining never exceeds Limit.',
      }),
      resetUnit: doc(z.enum(['delta-seconds', 'unix-seconds', 'unix-ms']).default('delta-seconds'), {
        spec: 'Part 8: "the unit of X-RateLimit-Reset: not shown."',
        reason: 'Seconds from now until the bucket is full again, like Retry-After.',
      }),
      tierAssignment: doc(z.enum(['key-store']).default('key-store'), {
        spec: 'Part 8: "How a key is assigned to a tier ... not shown."',
        reason: 'Each key carries its tier in the key store; a key without one gets `defaultTier`.',
      }),
      defaultTier: doc(z.enum(TIER_NAMES as [string, ...string[]]).default('growth'), {
        spec: 'Part 8: "how the public 300 per minute relates to the tiers: not shown."',
        reason: 'The quoted 300/min for authenticated requests is Growth\'s rate, so untiered keys are Growth.',
      }),
      publicScope: doc(z.enum(['client-address']).default('client-address'), {
        spec: 'Part 8: public endpoints 60/min; per what: not shown.',
        reason: 'Per client address, since public calls carry no key.',
      }),
      publicBurst: doc(z.number().int().min(1).default(60), {
        spec: 'Part 8: a burst for the public limit: not shown.',
        reason: 'No burst is quoted, so the bucket holds one minute of requests.',
      }),
      maxBodyBytes: doc(z.number().int().min(256).default(65_536), {
        spec: 'Request size bound: not shown.',
        reason: '64 KiB is far above any order body; larger ones are refused with 413 before parsing.',
      }),
    })
    .prefault({}),

  // Bounds the spec does not give. The defaults are the reference sandbox's; a detected profile
  // states one only where detection saw it enforced (null otherwise, detect/orders/bounds.ts),
  // so the exported document never promises a refusal the target does not make.
  bounds: z
    .object({
      rateBelow: doc(z.number().positive().nullable().default(1), {
        spec: 'Part 2: "Rates are numbers expressed as fractions (0.08 means 8%)"; an upper bound: not shown.',
        reason: 'Below 1 (100 %): a larger rate is most likely a percent sent by mistake. Orders asking more are refused naming `rate`, and no answer carries more. null: no bound.',
      }),
      orderbookMaxDepth: doc(z.number().int().min(1).nullable().default(1000), {
        spec: 'Part 4 / part 8: order book `depth` "default 10"; its maximum: not shown.',
        reason: 'A thousand levels is far past any book the sandbox holds; more is refused naming `depth`. null: no maximum (the book simply ends).',
      }),
    })
    .prefault({}),

  pagination: z
    .object({
      overMax: doc(z.enum(['reject', 'clamp']).default('reject'), {
        spec: 'Part 8: limit maximum 100; what a larger limit does: not shown.',
        reason: 'Reject with 400 naming `limit`, as Stripe does, so a client bug shows.',
      }),
      lastPageCursor: doc(z.enum(['omit', 'null']).default('omit'), {
        spec: 'Part 2: nextCursor on the last page: not shown.',
        reason: 'Omitted when hasMore is false.',
      }),
      order: doc(z.enum(['created-desc', 'created-asc']).default('created-desc'), {
        spec: 'Part 4: list order: not shown.',
        reason: 'Newest first, the common default for position lists.',
      }),
    })
    .prefault({}),

  lifecycle: z
    .object({
      statusAfterFullRepay: doc(z.string().default('matured'), {
        spec: 'Part 3: "Transitions: not shown" (status after repay).',
        reason: 'A fully repaid loan is closed; `matured` keeps it inside the filter\'s four values.',
      }),
      statusAfterLiquidation: doc(z.string().default('liquidated'), {
        spec: 'Part 3: position.liquidated "is not named as a status value in the list filter".',
        reason: 'The event names the state; readers must tolerate a status outside the four.',
      }),
      cancellable: doc(z.array(z.string()).default(['pending']), {
        spec: 'Part 3: "Cancel applies to an unmatched order."',
        reason: 'Only pending positions are unmatched.',
      }),
      transitions: doc(
        z.record(z.string(), z.array(z.string())).default({
          pending: ['active', 'cancelled'],
          active: ['matured', 'liquidated'],
          matured: [],
          cancelled: [],
          liquidated: [],
        }),
        { spec: 'Part 3: "Transitions: not shown."', reason: 'The shortest lifecycle consistent with part 3.' },
      ),
      autoRolloverAdvancedDefault: doc(z.boolean().default(false), {
        spec: 'Part 2: autoRollover "default in advanced mode: not shown".',
        reason: 'Advanced users choose explicitly; easy mode\'s true is stated.',
      }),
      autoRefinanceDefault: doc(z.boolean().default(false), {
        spec: 'Part 2: autoRefinance "default: not shown".',
        reason: 'Refinancing changes a borrower\'s rate, so it is opt-in.',
      }),
      defaultMaturity: doc(z.string().regex(/^[1-9]\d*d$/).default('30d'), {
        spec: 'Part 2: maturity is optional; the default: not shown.',
        reason: 'The shortest listed market.',
      }),
      maturityDateResolution: doc(z.enum(['nearest-market', 'exact-market']).default('nearest-market'), {
        spec: 'Part 2: an ISO date maturity; how it maps to a market: not shown.',
        reason: 'The market whose maturity is nearest to the date; a date in the past is rejected.',
      }),
      repayOnLend: doc(errorChoice.default({ code: 'invalid_request', status: 400 }), {
        spec: 'Part 4: repay on a lend position: not shown.',
        reason: 'Only borrow positions are repaid; the documented invalid_request says so without a new code.',
      }),
    })
    .prefault({}),

  errors: z
    .object({
      invalidState: doc(errorChoice.default({ code: 'invalid_request', status: 400 }), {
        spec: 'Part 7: code for "invalid state for an operation": not shown.',
        reason: 'Stay inside the documented codes; the message names the state.',
      }),
      unsupportedAsset: doc(errorChoice.default({ code: 'invalid_request', status: 400 }), {
        spec: 'Part 7: code for "unsupported asset": not shown.',
        reason: 'An unsupported asset is a malformed request for this interface.',
      }),
      unknownUser: doc(z.enum(['empty-list', 'position_not_found']).default('empty-list'), {
        spec: 'Part 7: code for "unknown user": not shown.',
        reason: 'userId is the partner\'s own identifier, so an unseen user simply has no positions yet.',
      }),
      unknownRoute: doc(errorChoice.default({ code: 'not_found', status: 404 }), {
        spec: 'Unknown paths: not shown.',
        reason: '404 with the error object, so clients parse every error the same way.',
      }),
      payloadTooLarge: doc(errorChoice.default({ code: 'invalid_request', status: 413 }), {
        spec: 'Oversized bodies: not shown.',
        reason: '413 is the HTTP status for it; the code stays a documented one.',
      }),
      methodNotAllowed: doc(errorChoice.default({ code: 'invalid_request', status: 405 }), {
        spec: 'A known path with the wrong method: not shown.',
        reason: '405 is the HTTP status for it; the code stays a documented one.',
      }),
      insufficientFundsDetails: doc(z.boolean().nullable().default(true), {
        spec: 'Part 7: error.details is "optional; for insufficient_funds holds required and available".',
        reason: 'The spec shows them; a target that omits them is searched for a user\'s funds instead (conformance/concurrency/funds.ts). Null: unknown (undetected), details left out are noted, never failed.',
      }),
      unsupportedMediaType: doc(errorChoice.default({ code: 'invalid_request', status: 400 }), {
        spec: 'Part 4: bodies "carry Content-Type: application/json"; a missing or wrong one: not shown.',
        reason: 'Treated as a malformed request naming Content-Type.',
      }),
    })
    .prefault({}),

  assets: z
    .object({
      borrow: doc(z.array(z.string()).default(['USDC', 'USDT', 'DAI']), {
        spec: 'Part 2: "the full list of allowed collateral and borrow assets: not shown."',
        reason: 'The lendable assets are the borrowable ones.',
      }),
      collateral: doc(z.array(z.string()).default(['ETH', 'WBTC', 'USDC', 'USDT', 'DAI']), {
        spec: 'Part 2: collateral "ETH and USDC are given as examples".',
        reason: 'The examples plus the other stablecoins and wrapped bitcoin.',
      }),
      info: doc(z.record(z.string(), assetInfoSchema).nullable().default({ ...DEFAULT_ASSET_INFO }), {
        spec: 'Precision of amounts per asset and their prices: not shown.',
        reason: 'Each token\'s on-chain decimals; more digits than that are over-precise and rejected. null: unknown (a detected profile that could not read them); a borrow pledging collateral at the minimum ratio then skips naming this option, as does an asset the record lacks.',
      }),
    })
    .prefault({}),

  amounts: z
    .object({
      minOrder: doc(z.string().default('1'), {
        spec: 'Part 8: "Minimum and maximum order ... amounts: not shown."',
        reason: 'One unit keeps dust orders out of the books.',
      }),
      maxOrder: doc(z.string().default('100000000'), {
        spec: 'Part 8: "Minimum and maximum order ... amounts: not shown."',
        reason: 'A hundred million caps runaway test scripts.',
      }),
      minWithdrawal: doc(z.string().default('1'), {
        spec: 'Part 8: "Minimum and maximum ... withdrawal amounts: not shown."',
        reason: 'One unit, the same floor as orders.',
      }),
      minCollateralRatio: doc(z.string().nullable().default('1.5'), {
        spec: 'Part 8: "Minimum and maximum ... collateral amounts: not shown."',
        reason: '150 % over-collateralisation, usual for crypto lending. null: unknown (a detected profile where no stablecoin pair let it be read); the checks that pledge collateral then skip naming it.',
      }),
      pledgeTaken: doc(z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/)).default({}), {
        spec: 'Part 8: "Minimum and maximum ... collateral amounts: not shown."',
        reason: 'Per "collateral/borrow" pair, collateral per unit borrowed that the target was seen to take: what a borrow pledges where minCollateralRatio is unknown (without a second stablecoin only the ratio over the collateral\'s price shows). Empty: none seen.',
      }),
      liquidationRatio: doc(z.string().default('1.2'), {
        spec: 'Part 3: liquidation exists; its threshold: not shown.',
        reason: '120 %, leaving room between opening and liquidation.',
      }),
    })
    .prefault({}),

  markets: marketsOptions,

  withdrawals: z
    .object({
      destinationPattern: doc(z.string().default('^0x[0-9a-fA-F]{40}$'), {
        spec: 'Part 4: destination is "string address"; its form: not shown.',
        reason: 'An EVM address: the assets are ERC-20 tokens.',
      }),
    })
    .prefault({}),

  cbt: z
    .object({
      amountBasis: doc(z.enum(['principal', 'principal-plus-projected']).default('principal-plus-projected'), {
        spec: 'Part 2: cbt "The meaning of this object beyond these two fields: not shown."',
        reason: 'Read as a bond token redeemable at maturity for principal plus fixed interest.',
      }),
    })
    .prefault({}),

  keys: z
    .object({
      issuance: doc(z.enum(['key-store-file']).default('key-store-file'), {
        spec: 'Part 5: "How keys are issued, rotated or scoped: not shown."',
        reason: 'A key store file (or env) lists keys with partner and tier; rotation is editing it.',
      }),
    })
    .prefault({}),

  versioning: z
    .object({
      deprecationPolicy: doc(z.enum(['none-observed']).default('none-observed'), {
        spec: 'Part 9: "Deprecation and change policy: not shown."',
        reason: 'Nothing can be tested; recorded so the report says so.',
      }),
    })
    .prefault({}),

  consistency: z
    .object({
      readAfterWrite: doc(z.enum(['strict', 'eventual']).default('strict'), {
        spec: 'Whether a read after an acknowledged write reflects it: not shown.',
        reason: 'A partner acting on its own acknowledged write expects to read it back; eventual targets declare a convergence time.',
      }),
      convergenceMs: doc(z.number().int().min(0).max(600_000).default(2_000), {
        spec: 'How soon reads reflect a write on an eventually consistent target: not shown.',
        reason: 'Only read under readAfterWrite "eventual": reads must show the write within this many ms.',
      }),
    })
    .prefault({}),

  ids: idsOptions,

  responses: doc(z.record(endpointKey, z.object({ fields: z.record(z.string(), z.enum(JSON_FIELD_TYPES)) })).default({}), {
    spec: 'Part 2: "Other records ... not shown"; part 4: "Response body: not shown" (borrow, repay, cancel, patch, withdraw, order book, webhooks, public rates, analytics, vaults).',
    reason: 'Empty: nothing is known of those bodies, so the OpenAPI export leaves them open objects; `profile detect` records the fields (and their JSON types) a target sent.',
  }),

  funding: fundingOptions,
  requests: requestsOptions,
  events: z
    .object({
      emitted: doc(z.array(z.enum(EVENT_TYPES)).default([...EVENT_TYPES]), {
        spec: 'Part 6: "The data content of the other event types: not shown."',
        reason: 'All six are emitted; their data shapes are the ones in contract/shapes.ts.',
      }),
    })
    .prefault({}),
});

export type Profile = z.infer<typeof profileSchema>;
export type ProfileInput = z.input<typeof profileSchema>;

export const defaultProfile: Profile = profileSchema.parse({});

/** Validates a user's profile over the defaults; errors name the offending path. */
export function parseProfile(input: unknown): Profile {
  const r = profileSchema.safeParse(input ?? {});
  if (!r.success) {
    const where = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`invalid profile: ${where}`);
  }
  return r.data;
}

export function loadProfile(file?: string): Profile {
  if (!file) return defaultProfile;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read profile ${file}: ${(e as Error).message}`);
  }
  return parseProfile(raw);
}

export function marketId(profile: Profile, asset: string, maturity: string): string {
  return `${asset}${profile.markets.idSeparator}${maturity}`;
}

/** The success status to expect or send by: the profile's, else the default (also where the profile records it as unknown). */
export function successStatus(profile: Profile, key: string): number {
  return profile.successStatus[key] ?? SUCCESS_STATUS_DEFAULTS[key] ?? 200;
}

/**
 * The success status the profile KNOWS, or undefined where it records it as unknown (null: a
 * detected profile that never saw the endpoint succeed). Part 4: "Success status codes: not
 * shown": a status the target documents or answers is its own choice, judged only against this,
 * never against a default standing in (issue 47: a withdrawal's 200, a public read's 203).
 */
export function knownSuccessStatus(profile: Profile, key: string): number | undefined {
  const v = profile.successStatus[key];
  return v === null ? undefined : (v ?? SUCCESS_STATUS_DEFAULTS[key] ?? 200);
}
