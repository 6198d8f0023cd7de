import { INCOMPLETE_SKIP_KINDS, type CheckResult, type PartResult } from './results.ts';

// One rule for every part's status from its checks (conformance, load): the verdict weighs its
// evidence the same way wherever the checks came from.

/**
 * The part's status weighs its evidence: any failure fails it; a check skipped because lendcheck
 * could not afford it (results.ts INCOMPLETE_SKIP_KINDS) makes it incomplete, never a pass; skips
 * for what the target or the run lacks are listed and may pass with the rest.
 */
export function partStatus(checks: readonly CheckResult[], advice = 'give more keys, a key of a higher tier, or a longer --max-wait'): Pick<PartResult, 'status' | 'skipReason'> {
  if (checks.some((c) => c.status === 'failed')) return { status: 'failed' };
  const starved = checks.filter((c) => c.status === 'skipped' && INCOMPLETE_SKIP_KINDS.includes(c.skipKind ?? 'not-observed'));
  if (starved.length) {
    const ids = starved.map((c) => c.id);
    return { status: 'incomplete', skipReason: `${starved.length} check${starved.length === 1 ? '' : 's'} could not be afforded (rate-limit room or time): ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''}; ${advice}` };
  }
  if (checks.some((c) => c.status === 'passed')) return { status: 'passed' };
  return { status: 'skipped', skipReason: 'no check applied to this target' };
}
