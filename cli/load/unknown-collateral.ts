import type { Profile } from '../../contract/index.ts';
import type { CheckResult, PartResult } from '../../kernel/results.ts';
import type { ScenarioName } from './env.ts';

// The scenarios that borrow (matching, mixed) pledge collateral at the profile's minimum ratio
// (contract/collateral.ts). Where a detected profile does not know it (null), a guessed pledge
// could be refused by a correct target and fail its figures (issue 47, mutator seed 28), so the
// run skips before k6 starts, naming the option.

const BORROWING: readonly ScenarioName[] = ['matching', 'mixed'];

/** Why the scenario cannot run under the profile, or undefined. */
export function unknownCollateralReason(scenario: ScenarioName, profile: Profile): string | undefined {
  if (!BORROWING.includes(scenario) || profile.amounts.minCollateralRatio !== null) return undefined;
  return `the ${scenario} scenario borrows, and its collateral needs profile amounts.minCollateralRatio, which is unknown (detection could not read it: no second stablecoin is taken as collateral to compare amounts at par); set it in the profile file (--profile)`;
}

/** The scenario's part, skipped with the reason before k6 starts. */
export function collateralSkipped(name: string, reason: string, target: string, profile: Profile, startedAt: Date): PartResult {
  const check: CheckResult = { id: 'load.collateral-known', title: 'the borrows of the scenario pledge collateral the profile knows to be enough', requirements: [], status: 'skipped', durationMs: 0, message: reason, skipKind: 'run-lacks', notes: [] };
  return { part: 'load', name, status: 'skipped', skipReason: reason, target, profile: profile.name, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), checks: [check], figures: {} };
}
