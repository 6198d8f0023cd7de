import { LEND_ASSETS } from './constants.ts';
import { Decimal } from './decimal.ts';
import type { Profile } from './profile.ts';

// Every amount lendcheck sends comes from the profile's bounds (part 8: "Minimum and maximum
// order, collateral and withdrawal amounts: not shown"). A check that wants several distinct
// amounts (pagination lends, storms) asks for the n-th; one that wants a single one asks for the
// 0th. A target whose minimum order is 100 refused the pagination checks' hard-coded 10 to 43
// (issue 47, cause 4).

export interface AmountWish {
  /** The amount the check would pick on its own (its size relative to funds); raised to the minimum, never above the maximum. Default 100. */
  base?: string;
  /** Whose precision the step may fall to when whole units do not fit below the maximum. */
  asset?: string;
  /** An order (minOrder) or a withdrawal (minWithdrawal). Default order. */
  kind?: 'order' | 'withdrawal';
}

/** More distinct amounts than any check asks for (the longest series, max-limit's, is ~105). */
const SERIES = 1000;

/**
 * The n-th (from 0) distinct amount the profile's bounds take: max(base, minimum) plus n steps,
 * capped by maxOrder. The step is a whole unit, or, where SERIES whole units do not fit below the
 * maximum, the asset's smallest unit (so one series never mixes steps). Exact (decimal.js),
 * written without exponent. Throws when the bounds leave no n-th.
 */
export function legalAmount(profile: Profile, n = 0, wish: AmountWish = {}): string {
  const min = new Decimal(wish.kind === 'withdrawal' ? profile.amounts.minWithdrawal : profile.amounts.minOrder);
  const max = new Decimal(profile.amounts.maxOrder);
  const start = Decimal.min(Decimal.max(new Decimal(wish.base ?? '100'), min), max);
  const places = Math.min(profile.assets.info?.[wish.asset ?? 'USDC']?.decimals ?? 6, 8);
  const step = start.plus(SERIES).lte(max) ? new Decimal(1) : new Decimal(10).pow(-places);
  const v = start.plus(step.times(n));
  if (v.lte(max)) return v.toFixed();
  throw new Error(`the profile's amounts (minimum ${min.toFixed()}, maximum ${max.toFixed()}) leave no ${n + 1} distinct amounts from ${start.toFixed()}`);
}

/** The asset lendcheck lends in: the first of the profile's borrow assets that the spec lets one lend. */
export function lendAsset(profile: Profile): string {
  return profile.assets.borrow.find((a) => (LEND_ASSETS as readonly string[]).includes(a)) ?? LEND_ASSETS[0];
}
