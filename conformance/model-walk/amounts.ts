import { Decimal } from '../../contract/decimal.ts';
import type { Profile } from '../../contract/index.ts';
import { collateralFor } from '../../contract/index.ts';

// The amounts the walk sends. The spec gives no decimals per asset; a profile's assets.info
// says them, but a detected file whose budget ran out keeps the defaults, which the target
// need not follow (the minimal-sandbox profile's WBTC takes 6 places where the default says
// 8). So every amount the walk sends has at most two decimal places, the least any asset is
// taken to have (the spec's own examples, and conformance/concurrency/kit.ts units()): only
// a profile that says an asset has fewer narrows it further. The walk checks money moved,
// not precision, so nothing it is there to catch needs more places.

/** The most decimal places the walk sends. */
export const WALK_PLACES = 2;

/** The places the walk sends of `asset`: two, or fewer if the profile says the asset has fewer. */
export function placesOf(profile: Profile, asset: string): number {
  return Math.min(profile.assets.info?.[asset]?.decimals ?? WALK_PLACES, WALK_PLACES);
}

/** `units` steps of `base` plus `units` of the last place sent: an amount with a fraction, within the order bounds. */
export function amountOf(profile: Profile, asset: string, base: string, units: number): Decimal {
  const places = placesOf(profile, asset);
  const x = new Decimal(base).mul(units).plus(new Decimal(units).div(new Decimal(10).pow(places)));
  // Rounded up, so a base finer than the places sent (a minOrder of 0.001) never drops below it.
  return Decimal.min(x.toDecimalPlaces(places, Decimal.ROUND_UP), new Decimal(profile.amounts.maxOrder));
}

/** The collateral of a borrow of `amount`: fixtures' collateralFor, rounded up to the places the walk sends. */
export function walkCollateral(profile: Profile, borrowAsset: string, amount: Decimal): { asset: string; amount: string } {
  const c = collateralFor(profile, borrowAsset, amount.toFixed());
  return { asset: c.asset, amount: new Decimal(c.amount).toDecimalPlaces(placesOf(profile, c.asset), Decimal.ROUND_UP).toFixed() };
}

/**
 * A partial repay of what is left of a borrow's principal: a fifth of it, or the smallest
 * amount sent when a fifth rounds to nothing; undefined when no amount below what is left
 * can be sent (a repay of all of it is a full repay, which closes the position).
 */
export function repayPart(profile: Profile, asset: string, left: Decimal): Decimal | undefined {
  const places = placesOf(profile, asset);
  const part = Decimal.max(left.div(5).toDecimalPlaces(places, Decimal.ROUND_DOWN), new Decimal(10).pow(-places));
  return part.lt(left) ? part : undefined;
}
