import { parseProfile, SUCCESS_STATUS_DEFAULTS, PUBLIC_ENVELOPE_DEFAULTS, type Profile, type ProfileInput } from '../../contract/index.ts';
import { ROUTES } from '../../contract/routes.ts';
import { drawFieldNames } from './bodies.ts';
import { drawFrom, type Draw } from './draw.ts';
import { SIGNATURE_SCHEMES } from '../../signing/variants.ts';

/** The default profile's get-rates path. */
const RATES = ROUTES['rates.get'].path;

// `lendcheck sandbox --choices random --seed N`: a profile drawn at every point the spec
// leaves "not shown", among choices a correct service could make (sandbox/choices/legal.ts
// states the spec's rules they keep), so that one sandbox can play many independent
// implementations. lendcheck's neutrality is the property that the whole gate, with
// --detect-profile, passes against each of them (scripts/neutrality-soak.mjs).
// Options the sandbox does not honour (detect/matrix.ts NOT_HONOURED), and the ones about how
// lendcheck drives a target (ids, funding), keep their defaults.

const CREATE_STATUSES = [200, 201, 202];
const READ_STATUSES = [200, 200, 203];
const DAYS = ['7d', '14d', '30d', '60d', '90d', '180d', '365d'];
const PERIODS = ['1d', '24h', '7d', '30d', '90d', '1y', '365d'];

// Each error choice keeps the spec's pairing for a code the spec names (part 7: invalid_request
// is 400, position_not_found 404); any other status comes with a code of its own.
const INVALID_STATE = [{ code: 'invalid_request', status: 400 }, { code: 'invalid_state', status: 409 }, { code: 'conflict', status: 409 }, { code: 'invalid_state', status: 422 }];
const UNSUPPORTED_ASSET = [{ code: 'invalid_request', status: 400 }, { code: 'unsupported_asset', status: 422 }, { code: 'invalid_asset', status: 400 }, { code: 'unsupported_asset', status: 400 }];
const UNKNOWN_ROUTE = [{ code: 'not_found', status: 404 }, { code: 'route_not_found', status: 404 }, { code: 'invalid_request', status: 400 }];
const TOO_LARGE = [{ code: 'payload_too_large', status: 413 }, { code: 'request_too_large', status: 413 }, { code: 'invalid_request', status: 400 }];
const WRONG_METHOD = [{ code: 'method_not_allowed', status: 405 }, { code: 'not_allowed', status: 405 }];
const MEDIA_TYPE = [{ code: 'invalid_request', status: 400 }, { code: 'unsupported_media_type', status: 415 }];
const REPAY_ON_LEND = [{ code: 'invalid_request', status: 400 }, { code: 'not_a_borrow', status: 422 }, { code: 'invalid_state', status: 409 }];

const days = (m: string) => Number(m.slice(0, -1));

function successStatuses(d: Draw): Record<string, number> {
  return Object.fromEntries(Object.keys(SUCCESS_STATUS_DEFAULTS).map((k) => [k, k.startsWith('GET ') ? d.pick(READ_STATUSES) : d.pick(CREATE_STATUSES)]));
}

function lifecycle(d: Draw, maturities: string[]): ProfileInput['lifecycle'] {
  const repaid = d.pick(['matured', 'repaid', 'closed']);
  const liquidated = d.pick(['liquidated', 'defaulted', 'seized']);
  const ends = [...new Set(['matured', repaid, liquidated])];
  return {
    statusAfterFullRepay: repaid,
    statusAfterLiquidation: liquidated,
    cancellable: ['pending'],
    transitions: { pending: ['active', 'cancelled'], active: ends, cancelled: [], ...Object.fromEntries(ends.map((s) => [s, []])) },
    autoRolloverAdvancedDefault: d.chance(0.5),
    autoRefinanceDefault: d.chance(0.5),
    defaultMaturity: d.pick(maturities),
    maturityDateResolution: d.pick(['nearest-market', 'exact-market'] as const),
    repayOnLend: d.pick(REPAY_ON_LEND),
  };
}

function assetsAndAmounts(d: Draw): Pick<ProfileInput, 'assets' | 'amounts'> {
  const stable = d.pick([6, 6, 2]);
  const minRatio = d.pick(['1.5', '1.25', '2']);
  return {
    assets: {
      borrow: d.subset(['USDC', 'USDT', 'DAI']),
      collateral: d.subset(['ETH', 'WBTC', 'USDC', 'USDT', 'DAI'], ['ETH']),
      info: {
        USDC: { decimals: stable, oraclePriceUsd: '1' },
        USDT: { decimals: d.pick([6, stable]), oraclePriceUsd: '1' },
        DAI: { decimals: 18, oraclePriceUsd: '1' },
        ETH: { decimals: d.pick([18, 9]), oraclePriceUsd: d.pick(['3000', '2500', '3412.5']) },
        WBTC: { decimals: 8, oraclePriceUsd: d.pick(['60000', '95000']) },
      },
    },
    amounts: {
      minOrder: d.pick(['1', '0.5', '10']),
      maxOrder: d.pick(['100000000', '5000000', '20000000']),
      minWithdrawal: d.pick(['1', '2', '0.5']),
      minCollateralRatio: minRatio,
      liquidationRatio: d.pick(minRatio === '2' ? ['1.2', '1.5'] : ['1.2', '1.1']),
    },
  };
}

/** The drawn profile as a profile file would hold it (over the defaults). */
export function randomChoices(seed: number): ProfileInput {
  const d = drawFrom(seed);
  const maturities = d.subset(DAYS).sort((a, b) => days(a) - days(b));
  const periods = d.subset(PERIODS);
  const listAndDelete = d.chance(0.6);
  return {
    name: `random-${seed}`,
    successStatus: successStatuses(d),
    // The spec gives no path: detection's candidates, and paths outside them (found through the
    // target's own OpenAPI document, which the sandbox serves; detect/market/rates.ts).
    // The default first (the route list's), then others; the order is the seeds' (a fixed seed draws the same path).
    ratesPath: d.pick([RATES, '/market-rates', '/interest-rates', `${RATES}/current`, '/lending-rates', '/lending/rates', '/quotes', '/fixed-rates']),
    publicEnvelope: Object.fromEntries(Object.keys(PUBLIC_ENVELOPE_DEFAULTS).map((p) => [p, d.pick(['bare', 'data'] as const)])),
    // Every variant of HMAC over the raw body lendcheck knows (signing/variants.ts, issue 47): the soak covers each.
    signature: { scheme: d.pick(SIGNATURE_SCHEMES) },
    webhooks: {
      secretRequired: d.chance(0.5),
      secretMinLength: d.pick([null, 22, 30]),
      registrationSecret: d.pick(['when-generated', 'always'] as const),
      afterFinalRetry: d.pick(['mark-failed', 'drop', 'disable-subscription'] as const),
      retryDelayFrom: d.pick(['attempt-end', 'attempt-start'] as const),
      successStatuses: d.pick(['2xx', '200'] as const),
      // lendcheck's receivers listen on loopback http; a partner sandbox that refuses them is tested with a tunnel, not here.
      allowLoopbackHttp: true,
      listAndDelete,
      deleteWithoutList: !listAndDelete && d.chance(0.5),
      matchedIncludesType: d.chance(0.5),
    },
    bodies: { fieldNames: drawFieldNames(d) },
    limits: {
      limitHeader: d.pick(['burst', 'per-minute'] as const),
      resetUnit: d.pick(['delta-seconds', 'unix-seconds', 'unix-ms'] as const),
      defaultTier: d.pick(['starter', 'growth', 'scale']),
      publicBurst: d.pick([60, 90, 120]),
      maxBodyBytes: d.pick([16_384, 65_536, 131_072]),
    },
    bounds: { rateBelow: d.pick([1, null]), orderbookMaxDepth: d.pick([1000, 100, 500, null]) },
    pagination: { overMax: d.pick(['reject', 'clamp'] as const), lastPageCursor: d.pick(['omit', 'null'] as const), order: d.pick(['created-desc', 'created-asc'] as const) },
    lifecycle: lifecycle(d, maturities),
    errors: {
      invalidState: d.pick(INVALID_STATE),
      unsupportedAsset: d.pick(UNSUPPORTED_ASSET),
      unknownUser: d.pick(['empty-list', 'position_not_found'] as const),
      unknownRoute: d.pick(UNKNOWN_ROUTE),
      payloadTooLarge: d.pick(TOO_LARGE),
      methodNotAllowed: d.pick(WRONG_METHOD),
      insufficientFundsDetails: d.chance(0.7),
      unsupportedMediaType: d.pick(MEDIA_TYPE),
    },
    ...assetsAndAmounts(d),
    markets: { maturities, idSeparator: d.pick(['-', ':', '_']), periods, defaultPeriod: d.pick(periods) },
    cbt: { amountBasis: d.pick(['principal', 'principal-plus-projected'] as const) },
    // Drawn LAST: a draw added in the middle would move every later draw of a seed (fixed-seeds.json stays meaningful).
    requests: { unknownFields: d.pick(['ignore', 'reject'] as const) },
  };
}

/** The drawn profile, parsed over the defaults. */
export function randomProfile(seed: number): Profile {
  return parseProfile(randomChoices(seed));
}
