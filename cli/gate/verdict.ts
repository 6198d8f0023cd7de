import type { PartResult, RunSummary } from '../../kernel/results.ts';

// The gate's verdict follows the evidence: a run passes only when something was checked
// and everything the user asked for ran. Exit codes are what a CI reads.

export const EXIT_CODES: Record<RunSummary['verdict'], number> = { passed: 0, failed: 1, incomplete: 3 };

export interface VerdictRules {
  /** Steps the user asked for by name (--only); a skip among them is not a pass. */
  named?: string[];
  /** Accept skipped steps on purpose (--allow-skip): then a run of skips can pass. */
  allowSkip?: boolean;
}

export interface Judged {
  verdict: RunSummary['verdict'];
  reasons: string[];
}

/** Parts as the steps produced them, keyed by step name. */
export function judgeRun(results: Array<{ step: string; part: PartResult }>, rules: VerdictRules = {}): Judged {
  const failed = results.filter((r) => r.part.status === 'failed');
  if (failed.length) return { verdict: 'failed', reasons: failed.map((r) => `${r.step} failed`) };
  const reasons: string[] = [];
  // Not observed to its end (e.g. a retry still due): --allow-skip does not accept it.
  for (const r of results.filter((x) => x.part.status === 'incomplete')) reasons.push(`${r.step} is incomplete${r.part.skipReason ? `: ${r.part.skipReason}` : ''}`);
  if (!rules.allowSkip) {
    const skipped = results.filter((r) => r.part.status === 'skipped');
    if (results.length === 0) reasons.push('no step ran');
    else if (skipped.length === results.length) reasons.push(`every step skipped (${skipped.map((r) => r.step).join(', ')}); pass --allow-skip to accept that on purpose`);
    else {
      for (const r of skipped.filter((x) => rules.named?.includes(x.step))) reasons.push(`${r.step} was asked for by name and skipped: ${r.part.skipReason ?? 'no reason given'}; pass --allow-skip to accept that on purpose`);
    }
  }
  return reasons.length ? { verdict: 'incomplete', reasons } : { verdict: 'passed', reasons: [] };
}
