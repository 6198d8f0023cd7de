// The profile's choices, resolved here and handed to the scenarios as env: k6 cannot
// import the zod profile. API_KEY travels in the process environment only (never as
// `-e` on the command line, where `ps` would show it).
import { LEND_ASSETS, type Profile } from '../../contract/index.ts';

export const SCENARIOS = ['rate-limit', 'matching', 'mixed'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ScenarioEnvInput {
  scenario: ScenarioName;
  tier: string;
  publicMode: boolean;
  smoke: boolean;
  baseUrl: string;
  runId: string;
  receiverUrl?: string;
  /** Whether the target has lendcheck's /sandbox controls. */
  sandboxControls: boolean;
}

export function scenarioEnv(profile: Profile, i: ScenarioEnvInput): Record<string, string> {
  const lendable = profile.assets.borrow.filter((a) => (LEND_ASSETS as readonly string[]).includes(a));
  return {
    BASE_URL: i.baseUrl,
    TIER: i.tier,
    PUBLIC: i.publicMode ? '1' : '0',
    SMOKE: i.smoke ? '1' : '0',
    BURST_MEANING: profile.limits.burstMeaning,
    LIMIT_HEADER: profile.limits.limitHeader,
    RESET_UNIT: profile.limits.resetUnit,
    PUBLIC_BURST: String(profile.limits.publicBurst),
    RATES_PATH: profile.ratesPath,
    PUBLIC_PATH: '/markets',
    ASSETS: lendable.join(','),
    COLLATERAL: profile.assets.collateral.includes('ETH') ? 'ETH' : profile.assets.collateral[0],
    COLLATERAL_RATIO: profile.amounts.minCollateralRatio,
    COLLATERAL_PRICE: profile.assets.info[profile.assets.collateral.includes('ETH') ? 'ETH' : profile.assets.collateral[0]]?.oraclePriceUsd ?? '1',
    MATURITIES: profile.markets.maturities.join(','),
    MARKET_SEPARATOR: profile.markets.idSeparator,
    LIST_STATUSES: 'pending,active',
    FUND: i.sandboxControls ? '1' : '0',
    RUN_ID: i.runId,
    ...(i.receiverUrl ? { RECEIVER_URL: i.receiverUrl } : {}),
  };
}
