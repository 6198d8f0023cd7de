import { LEND_ASSETS } from './constants.ts';
import { Decimal } from './decimal.ts';
import type { Profile } from './profile.ts';
import { known } from './unknown-option.ts';

// The collateral every suite pledges for a borrow: conformance's fixtures, the model walk,
// the storms and the load scenarios ask here, so one rule decides what a borrow of lendcheck
// pledges under a profile.

/**
 * Collateral is this many times the profile's minimum ratio of the debt. The ratio is "not
 * shown" and detection reads it only where a second stablecoin is taken as collateral; a
 * target that requires up to twice the profile's ratio (2 where the default says 1.5) still
 * takes every borrow, and a price tick never refuses one. (The load scenarios pledged 1.2×
 * once, and a legal target requiring 2 refused every borrow of the matching smoke.)
 */
export const COLLATERAL_MARGIN = 2;

/**
 * Collateral worth COLLATERAL_MARGIN times the profile's minimum ratio of the debt, in the
 * collateral asset's own precision: a volatile asset first (the spec's example ETH), else any
 * other one. Rounded up to two significant digits first: as few decimal places as the amount
 * allows, so a target whose asset has fewer decimals than the profile says (assets.info not
 * detected) still takes it.
 */
export function collateralFor(profile: Profile, borrowAsset: string, borrowAmount: string): { asset: string; amount: string } {
  const asset = collateralAsset(profile, borrowAsset);
  const decimals = profile.assets.info[asset]?.decimals ?? 6;
  const need = new Decimal(borrowAmount).mul(pledgePerUnit(profile, asset, borrowAsset)).mul(COLLATERAL_MARGIN);
  return { asset, amount: need.toSignificantDigits(2, Decimal.ROUND_UP).toDecimalPlaces(Math.min(decimals, 8), Decimal.ROUND_UP).toFixed() };
}

/** The asset collateralFor pledges against `borrowAsset`: a volatile one first, else any other (no ratio needed to choose it). */
export function collateralAsset(profile: Profile, borrowAsset: string): string {
  const others = profile.assets.collateral.filter((a) => a !== borrowAsset);
  return others.find((a) => !(LEND_ASSETS as readonly string[]).includes(a)) ?? others[0] ?? profile.assets.collateral[0] ?? 'ETH';
}

/**
 * Collateral per unit borrowed at the minimum: the ratio at the profile's prices, else a pledge
 * the target was seen to take for this pair (amounts.pledgeTaken, read where the ratio cannot
 * be: issue 47, mutator seed 28), else UnknownOption naming the ratio.
 */
export function pledgePerUnit(profile: Profile, asset: string, borrowAsset: string): Decimal {
  const ratio = profile.amounts.minCollateralRatio;
  const taken = profile.amounts.pledgeTaken[`${asset}/${borrowAsset}`];
  if (ratio === null && taken !== undefined) return new Decimal(taken);
  const price = (a: string) => new Decimal(profile.assets.info[a]?.oraclePriceUsd ?? '1');
  const r = known(ratio, 'amounts.minCollateralRatio', `a borrow's collateral (${asset} against ${borrowAsset}; nor is amounts.pledgeTaken known for the pair)`);
  return price(borrowAsset).mul(r).div(price(asset));
}
