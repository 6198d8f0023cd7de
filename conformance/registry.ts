import type { Profile } from '../contract/index.ts';
import { CheckRegistry } from '../kernel/check-kernel.ts';
import type { Check } from './check.ts';
import { authChecks } from './checks/auth.ts';
import { authzChecks } from './authz/checks.ts';
import { endpointChecks } from './checks/endpoints.ts';
import { everyAnswerCheck } from './checks/every-answer.ts';
import { errorChecks } from './checks/errors.ts';
import { fuzzChecks } from './checks/fuzz.ts';
import { hookChecks } from './checks/hooks.ts';
import { deliveryChecks } from './hooks/delivery-checks.ts';
import { lifecycleChecks } from './checks/lifecycle.ts';
import { limitChecks, type KeyTiers } from './checks/limits.ts';
import { paginationChecks } from './checks/pagination.ts';
import { concurrencyChecks } from './concurrency/index.ts';
import { linearizeChecks } from './concurrency/linearize/storm-check.ts';
import { walkChecks } from './model-walk/walk-check.ts';

// The registry: every check of the suite, keyed by id. Ids are stable (reports and
// --only use them); the order here is the run order within a phase.

export function allChecks(profile: Profile, tiers: KeyTiers = {}): Check[] {
  const list = [
    ...authChecks(profile),
    ...authzChecks(profile),
    ...endpointChecks(profile),
    everyAnswerCheck(profile),
    // The delivery scenario before the lifecycle checks: its matched pair is the run's shared one, which they read (issue 48).
    ...deliveryChecks(profile),
    ...lifecycleChecks(profile),
    ...paginationChecks(profile),
    ...errorChecks(profile),
    ...fuzzChecks(profile),
    ...hookChecks(profile),
    ...concurrencyChecks(),
    ...limitChecks(profile, tiers),
    ...linearizeChecks(profile),
    ...walkChecks(profile),
  ];
  // The registry refuses a duplicate id.
  return new CheckRegistry<Check>(list).list();
}

export function checkById(profile: Profile): Map<string, Check> {
  return new Map(allChecks(profile).map((c) => [c.id, c]));
}
