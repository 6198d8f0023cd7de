import type { Profile } from './profile.ts';

// The maturity lendcheck's own orders name (issue 47: every value sent comes from the profile).
// lifecycle.defaultMaturity is what the target applies when an order names none, part 2's "not
// shown"; undetected it keeps the sandbox's 30d, which a target whose markets are 69d, 301d and
// 365d refuses (mutator seed 6 under a Starter budget: five storms failed on it). The markets
// the profile lists are known to be there, so an order goes to the default only when it is one.

/** The maturity of the suites' orders: the default maturity when a listed market, else the first listed one. */
export function orderMaturity(p: Pick<Profile, 'markets' | 'lifecycle'>): string {
  const listed = p.markets.maturities;
  return !listed.length || listed.includes(p.lifecycle.defaultMaturity) ? p.lifecycle.defaultMaturity : listed[0]!;
}
