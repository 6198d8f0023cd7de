// Everything a scenario needs from outside comes through __ENV: k6 cannot import the
// profile's schemas, so `lendcheck load` resolves the profile's choices (burst meaning, limit
// header, reset unit, paths) and passes them in as plain strings. Defaults here mirror
// the default profile so a scenario also runs by hand with `k6 run -e BASE_URL=…`.
import { LEND_ASSETS, PUBLIC_PER_MINUTE, TIERS, type TierName } from '../../contract/constants.ts';
import { ROUTES } from '../../contract/routes.ts';

export type LimitHeaderMeaning = 'burst' | 'per-minute';
export type ResetUnit = 'delta-seconds' | 'unix-seconds' | 'unix-ms';

export interface LoadConfig {
  baseUrl: string;
  apiKey: string;
  tier: string;
  /** The limited subject is the client address on public endpoints, the key otherwise. */
  publicMode: boolean;
  smoke: boolean;
  perMinute: number;
  /** Bucket capacity under the profile's `bucket-capacity` meaning of burst. */
  burst: number;
  burstMeaning: string;
  limitHeader: LimitHeaderMeaning;
  resetUnit: ResetUnit;
  /** Relative tolerance of the burst count and of the sustained admitted rate. */
  burstTolerance: number;
  sustainTolerance: number;
  /** A cheap keyed GET (the profile's rates path) and a cheap public GET. */
  ratesPath: string;
  publicPath: string;
  assets: string[];
  maturities: string[];
  marketSeparator: string;
  runId: string;
  /** Order size and the collateral that covers it (worked out exactly by the command). */
  orderAmount: string;
  /** The rate of the mix's lends that must stay pending (below the profile's rate bound). */
  restingRate: number;
  /** Each withdrawal of the mix (the profile's minimum withdrawal or more). */
  withdrawAmount: string;
  collateralAsset: string;
  collateralAmount: string;
  /** A withdrawal destination of the form the profile takes. */
  destination: string;
  /** The profile's answer to an operation in the wrong state (errors.invalidState). */
  invalidState: { status: number; code: string };
  /** The field of the borrow answer (not shown by the spec) holding the position id (profile ids.borrow); empty: found. */
  borrowIdField: string;
}

function str(name: string, fallback: string): string {
  const v = __ENV[name];
  return v === undefined || v === '' ? fallback : v;
}

function num(name: string, fallback: number): number {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name}: expected a number, received "${raw}"`);
  return n;
}

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const v = str(name, fallback);
  if (!(allowed as readonly string[]).includes(v)) throw new Error(`${name}: expected one of ${allowed.join(', ')}, received "${v}"`);
  return v as T;
}

export function loadConfig(): LoadConfig {
  const publicMode = str('PUBLIC', '0') === '1';
  const smoke = str('SMOKE', '0') === '1';
  const tier = str('TIER', 'growth');
  const known = (TIERS as Record<string, { perMinute: number; burst: number }>)[tier];
  // Enterprise is "custom" in the spec: its figures must come in through env.
  if (!known && !publicMode && (!__ENV.TIER_PER_MINUTE || !__ENV.TIER_BURST)) {
    throw new Error(`TIER: "${tier}" is not one of ${Object.keys(TIERS).join(', ')}; give TIER_PER_MINUTE and TIER_BURST for a custom tier`);
  }
  const perMinute = publicMode ? num('PUBLIC_PER_MINUTE', PUBLIC_PER_MINUTE) : num('TIER_PER_MINUTE', known?.perMinute ?? 0);
  const burst = publicMode ? num('PUBLIC_BURST', PUBLIC_PER_MINUTE) : num('TIER_BURST', known?.burst ?? 0);
  return {
    baseUrl: str('BASE_URL', 'http://127.0.0.1:8080/v1').replace(/\/+$/, ''),
    apiKey: str('API_KEY', ''),
    tier: publicMode ? 'public' : tier,
    publicMode,
    smoke,
    perMinute,
    burst,
    burstMeaning: str('BURST_MEANING', 'bucket-capacity'),
    limitHeader: oneOf<LimitHeaderMeaning>('LIMIT_HEADER', ['burst', 'per-minute'], 'burst'),
    resetUnit: oneOf<ResetUnit>('RESET_UNIT', ['delta-seconds', 'unix-seconds', 'unix-ms'], 'delta-seconds'),
    burstTolerance: num('BURST_TOLERANCE', smoke ? 0.05 : 0.02),
    sustainTolerance: num('SUSTAIN_TOLERANCE', smoke ? 0.1 : 0.02),
    // The route list's, as in the default profile; the command passes the profile's.
    ratesPath: str('RATES_PATH', ROUTES['rates.get'].path),
    publicPath: str('PUBLIC_PATH', ROUTES['public.markets'].path),
    assets: str('ASSETS', LEND_ASSETS.join(',')).split(','),
    maturities: str('MATURITIES', '30d,90d,180d').split(','),
    marketSeparator: str('MARKET_SEPARATOR', '-'),
    runId: str('RUN_ID', 'run'),
    orderAmount: str('ORDER_AMOUNT', '100'),
    restingRate: num('RESTING_RATE', 0.5),
    withdrawAmount: str('WITHDRAW_AMOUNT', '1'),
    collateralAsset: str('COLLATERAL', 'ETH'),
    collateralAmount: str('COLLATERAL_AMOUNT', '0.06'),
    destination: str('DESTINATION', '0x000000000000000000000000000000000000dEaD'),
    invalidState: { status: num('INVALID_STATE_STATUS', 400), code: str('INVALID_STATE_CODE', 'invalid_request') },
    borrowIdField: str('BORROW_ID_FIELD', ''),
  };
}

/** The value X-RateLimit-Limit must carry for this tier under the profile. */
export function expectedLimitHeader(cfg: LoadConfig): number {
  return cfg.limitHeader === 'burst' ? cfg.burst : cfg.perMinute;
}

export const perSecond = (cfg: LoadConfig): number => cfg.perMinute / 60;

export type { TierName };
