// The profile's choices, resolved here and handed to the scenarios as env: k6 cannot
// import the zod profile. API_KEY travels in the process environment only (never as
// `-e` on the command line, where `ps` would show it).
import { ADDRESS_FORMS, addressFor, collateralAsset, legalAmount, LEND_ASSETS, limitProbePath, type Profile } from '../../contract/index.ts';
import { restingRate } from '../../contract/resting-rate.ts';
import { routePath } from '../../contract/fill-path.ts';
import { pledgeOf } from './unknown-collateral.ts';

export const SCENARIOS = ['rate-limit', 'matching', 'mixed'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ScenarioEnvInput {
  scenario: ScenarioName;
  tier: string;
  publicMode: boolean;
  smoke: boolean;
  baseUrl: string;
  runId: string;
}

/** Size of every order the scenarios place: 100, raised to the profile's minimum order (never past its maximum). */
export const orderAmountOf = (profile: Profile): string => legalAmount(profile);

export function scenarioEnv(profile: Profile, i: ScenarioEnvInput): Record<string, string> {
  const lendable = profile.assets.borrow.filter((a) => (LEND_ASSETS as readonly string[]).includes(a));
  // The collateral every suite pledges (contract/collateral.ts), for an order on the first market.
  const orderAmount = orderAmountOf(profile);
  // Unknown pledge: the borrowing scenarios skip before k6 (unknown-collateral.ts); the others send no borrow.
  const collateral = pledgeOf(profile, lendable[0] ?? 'USDC', orderAmount) ?? { asset: collateralAsset(profile, lendable[0] ?? 'USDC'), amount: '' };
  return {
    BASE_URL: i.baseUrl,
    TIER: i.tier,
    PUBLIC: i.publicMode ? '1' : '0',
    SMOKE: i.smoke ? '1' : '0',
    BURST_MEANING: profile.limits.burstMeaning,
    LIMIT_HEADER: profile.limits.limitHeader,
    RESET_UNIT: profile.limits.resetUnit,
    PUBLIC_BURST: String(profile.limits.publicBurst),
    // The limiter's scenario needs a keyed read; where the rates path is unknown, another (contract limitProbePath).
    RATES_PATH: limitProbePath(profile),
    PUBLIC_PATH: routePath('public.markets'),
    ASSETS: lendable.join(','),
    ORDER_AMOUNT: orderAmount,
    // The mix's lends that must stay pending: below the profile's rate bound (issue 47), never a fixed 0.5.
    RESTING_RATE: String(restingRate(profile.bounds.rateBelow).rate ?? 0.01),
    // The mix's withdrawals: 1, raised to the profile's minimum withdrawal.
    WITHDRAW_AMOUNT: legalAmount(profile, 0, { base: '1', kind: 'withdrawal' }),
    COLLATERAL: collateral.asset,
    COLLATERAL_AMOUNT: collateral.amount,
    MATURITIES: profile.markets.maturities.join(','),
    MARKET_SEPARATOR: profile.markets.idSeparator,
    RUN_ID: i.runId,
    DESTINATION: addressFor(profile.withdrawals.destinationPattern) ?? ADDRESS_FORMS[0]!.sample,
    INVALID_STATE_STATUS: String(profile.errors.invalidState.status),
    INVALID_STATE_CODE: profile.errors.invalidState.code,
    // Where the borrow answer (not shown by the spec) holds the new position's id; empty: found (contract/body-id.ts).
    BORROW_ID_FIELD: profile.ids.borrow ?? '',
  };
}
