import type { Profile } from '../../contract/index.ts';

// Sandbox-only behaviour that is no part of the interface (so not in the profile):
// reference rates for empty books, the vault catalogue, and the delays of the
// built-in counterparties. Partners tune them through SandboxOptions.

export interface LiquidityConfig {
  /** Fills orders nobody matched, so pending → active happens without a second party. */
  enabled: boolean;
  /** Business seconds an order waits in the book before the provider fills it. */
  delaySeconds: number;
}

export interface VaultConfig {
  id: string;
  name: string;
  asset: string;
  maturity: string;
}

export interface SandboxConfig {
  liquidity: LiquidityConfig;
  /** Business seconds between a withdrawal request and its completion. */
  withdrawalDelaySeconds: number;
  /** Funds a user gets the first time the sandbox sees them. */
  startingFunds: Record<string, string>;
  /** Rate of a market whose book and history are empty, by maturity. */
  referenceRates: Record<string, number>;
  /** Half the gap between lend and borrow quotes when one side of a book is empty. */
  halfSpread: number;
  vaults: VaultConfig[];
  /** Business ms between recorded market snapshots (analytics history). */
  snapshotEveryMs: number;
}

export function defaultConfig(profile: Profile): SandboxConfig {
  const referenceRates: Record<string, number> = {};
  profile.markets.maturities.forEach((m, i) => (referenceRates[m] = Number((0.05 + 0.005 * i).toFixed(4))));
  return {
    liquidity: { enabled: true, delaySeconds: 5 },
    withdrawalDelaySeconds: 10,
    startingFunds: { USDC: '100000', USDT: '100000', DAI: '100000', ETH: '100', WBTC: '5' },
    referenceRates,
    halfSpread: 0.005,
    vaults: profile.assets.borrow.flatMap((asset) =>
      profile.markets.maturities.slice(0, 2).map((maturity) => ({
        id: `${asset.toLowerCase()}-${maturity}`,
        name: `${asset} fixed ${maturity}`,
        asset,
        maturity,
      })),
    ),
    snapshotEveryMs: 3_600_000,
  };
}
