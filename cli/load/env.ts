// The profile's choices, resolved here and handed to the scenarios as env: k6 cannot
// import the zod profile. API_KEY travels in the process environment only (never as
// `-e` on the command line, where `ps` would show it).
import { ADDRESS_FORMS, addressFor, collateralFor, LEND_ASSETS, limitProbePath, type Profile } from '../../contract/index.ts';

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

/** Size of every order the scenarios place. */
export const ORDER_AMOUNT = '100';

export function scenarioEnv(profile: Profile, i: ScenarioEnvInput): Record<string, string> {
  const lendable = profile.assets.borrow.filter((a) => (LEND_ASSETS as readonly string[]).includes(a));
  // The collateral every suite pledges (contract/collateral.ts), for an order on the first market.
  const collateral = collateralFor(profile, lendable[0] ?? 'USDC', ORDER_AMOUNT);
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
    PUBLIC_PATH: '/markets',
    ASSETS: lendable.join(','),
    ORDER_AMOUNT,
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
