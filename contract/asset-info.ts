import { z } from 'zod';

// Each asset's precision and oracle price (profile assets.info). The spec states neither: they
// are the reference sandbox's, and a detected profile that could not read them records them as
// unknown (null) rather than these (issue 47): a borrow's pledge at a guessed price can be
// refused by a correct target.

export const assetInfoSchema = z.object({ decimals: z.number().int().min(0).max(36), oraclePriceUsd: z.string() });

export type AssetInfo = z.infer<typeof assetInfoSchema>;

/** The sandbox's tokens: their on-chain decimals and round prices. */
export const DEFAULT_ASSET_INFO: Readonly<Record<string, AssetInfo>> = {
  USDC: { decimals: 6, oraclePriceUsd: '1' },
  USDT: { decimals: 6, oraclePriceUsd: '1' },
  DAI: { decimals: 18, oraclePriceUsd: '1' },
  ETH: { decimals: 18, oraclePriceUsd: '3000' },
  WBTC: { decimals: 8, oraclePriceUsd: '60000' },
};
