import { slowRefill } from './slow-refill.ts';
import type { LimitFaultModule, LimitFaultSetting } from './types.ts';
import type { LimitRule } from '../gcra.ts';

// The limiter's faults by name. They share the `--fault` flag and SandboxOptions.faults with
// the endpoint and sender faults (sandbox/faults/index.ts sends each name to its registry).

export type { LimitFaultModule, LimitFaultSetting } from './types.ts';

const MODULES: LimitFaultModule[] = [slowRefill];

export const LIMIT_FAULTS: ReadonlyMap<string, LimitFaultModule> = new Map(MODULES.map((m) => [m.name, m]));

/** The rule enforced under every limiter fault given, applied in turn to the stated rule. */
export function enforcedRule(settings: readonly LimitFaultSetting[], stated: LimitRule): LimitRule {
  return settings.reduce((rule, s) => s.module.enforced(s.config, rule), stated);
}
