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
  const decimals = profile.assets.info?.[asset]?.decimals ?? 6;
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
 * the target was seen to take for this pair (amounts.pledgeTaken, read where the ratio or the
 * prices cannot be: issue 47, mutator seed 28), else UnknownOption naming the ratio, or the
 * prices (assets.info) where the ratio is known but a price of the pair is not: a price of 1 or
 * the sandbox's in its place would be a guess a correct target can refuse.
 */
export function pledgePerUnit(profile: Profile, asset: string, borrowAsset: string): Decimal {
  const ratio = profile.amounts.minCollateralRatio;
  const taken = profile.amounts.pledgeTaken[`${asset}/${borrowAsset}`];
  const pair = `a borrow's collateral (${asset} against ${borrowAsset}; nor is amounts.pledgeTaken known for the pair)`;
  if (taken !== undefined && (ratio === null || !pricesKnown(profile, [asset, borrowAsset]))) return new Decimal(taken);
  const r = known(ratio, 'amounts.minCollateralRatio', pair);
  return assetPrice(profile, borrowAsset, pair).mul(r).div(assetPrice(profile, asset, pair));
}

const pricesKnown = (profile: Profile, assets: string[]) => assets.every((a) => profile.assets.info?.[a] !== undefined);

/** The asset's oracle price in USD from the profile, or UnknownOption naming assets.info (null, or a record without the asset). */
export function assetPrice(profile: Profile, asset: string, need: string): Decimal {
  const info = known(profile.assets.info, 'assets.info', need);
  return new Decimal(known(info[asset]?.oraclePriceUsd, 'assets.info', `${need}, at ${asset}'s price (the record has no ${asset})`));
}
