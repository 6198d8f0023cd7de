import './slow-refill.ts';
import { atSeam, type Installed } from '../../../faults/index.ts';
import type { LimitRule } from '../gcra.ts';
import type { LimitFault, LimitFaultSetting } from './types.ts';

// The limiter's faults: importing this module registers them (faults/) at the 'limiter' seam.

export type { LimitFault, LimitFaultSetting } from './types.ts';

/** The limiter's faults among a sandbox's validated settings (SandboxContext.faults). */
export const limiterFaults = (all: readonly Installed[] = []): LimitFaultSetting[] => atSeam<LimitFault>(all, 'limiter');

/** The rule enforced under every limiter fault given, applied in turn to the stated rule. */
export function enforcedRule(settings: readonly LimitFaultSetting[], stated: LimitRule): LimitRule {
  return settings.reduce((rule, s) => s.fault.install(s.config, rule), stated);
}
