import { collateralFor, LEND_ASSETS, legalAmount, UnknownOption, type Profile } from '../../contract/index.ts';
import type { CheckResult, PartResult } from '../../kernel/results.ts';

// The scenarios that borrow (matching, mixed) pledge collateral at the profile's minimum ratio
// (contract/collateral.ts), or a pledge seen taken. Where a detected profile knows neither, a guessed pledge
// could be refused by a correct target and fail its figures (issue 47, mutator seed 28), so the
// run skips before k6 starts, naming the option.

/** The scenarios that borrow (env.ts's names; not imported from there, which imports this file). */
const BORROWING: readonly string[] = ['matching', 'mixed'];

/** The collateral of a borrow, or undefined where the profile knows no pledge for it. */
export function pledgeOf(profile: Profile, borrowAsset: string, amount: string): { asset: string; amount: string } | undefined {
  try {
    return collateralFor(profile, borrowAsset, amount);
  } catch (e) {
    if (e instanceof UnknownOption) return undefined;
    throw e;
  }
}

/** Why the scenario cannot run under the profile, or undefined. */
export function unknownCollateralReason(scenario: string, profile: Profile): string | undefined {
  if (!BORROWING.includes(scenario)) return undefined;
  const asset = profile.assets.borrow.find((a) => (LEND_ASSETS as readonly string[]).includes(a)) ?? 'USDC';
  try {
    collateralFor(profile, asset, legalAmount(profile));
    return undefined;
  } catch (e) {
    if (!(e instanceof UnknownOption)) throw e;
    return `the ${scenario} scenario borrows: ${e.message}; set it in the profile file (--profile)`;
  }
}

/** The scenario's part, skipped with the reason before k6 starts. */
export function collateralSkipped(name: string, reason: string, target: string, profile: Profile, startedAt: Date): PartResult {
  const check: CheckResult = { id: 'load.collateral-known', title: 'the borrows of the scenario pledge collateral the profile knows to be enough', requirements: [], status: 'skipped', durationMs: 0, message: reason, skipKind: 'run-lacks', notes: [] };
  return { part: 'load', name, status: 'skipped', skipReason: reason, target, profile: profile.name, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), checks: [check], figures: {} };
}
