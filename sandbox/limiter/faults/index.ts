import { atSeam, type Installed } from '../../../faults/index.ts';
import type { LimitRule } from '../gcra.ts';
import type { LimitFault, LimitFaultSetting } from './types.ts';

// The limiter's faults, listed in the sandbox's one registry (sandbox/faults/index.ts).

export type { LimitFault, LimitFaultSetting } from './types.ts';
export { slowRefill } from './slow-refill.ts';

/** The limiter's faults among a sandbox's validated settings (SandboxContext.faults). */
export const limiterFaults = (all: readonly Installed[] = []): LimitFaultSetting[] => atSeam<LimitFault>(all, 'limiter');

/** The rule enforced under every limiter fault given, applied in turn to the stated rule. */
export function enforcedRule(settings: readonly LimitFaultSetting[], stated: LimitRule): LimitRule {
  return settings.reduce((rule, s) => s.fault.install(s.config, rule), stated);
}
