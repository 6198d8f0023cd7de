import './slow-refill.ts';
import type { LimitRule } from '../gcra.ts';
import type { LimitFaultSetting } from './types.ts';

// The limiter's faults: importing this module registers them (faults/) at the 'limiter' seam.

export type { LimitFault, LimitFaultSetting } from './types.ts';

/** The rule enforced under every limiter fault given, applied in turn to the stated rule. */
export function enforcedRule(settings: readonly LimitFaultSetting[], stated: LimitRule): LimitRule {
  return settings.reduce((rule, s) => s.fault.install(s.config, rule), stated);
}
