import type { ThresholdVerdict } from './thresholds.ts';

// Some thresholds of a scenario state no rule of the spec: they guard lendcheck's own plan of
// the measurement. The rate-limit scenario fires its burst, then starts the sustained phase on
// a fixed schedule; burst_seconds says the burst was answered before that phase began. A target
// that answers slowly (legal: the spec sets no latency) crosses it, and then the sustained
// phase's counts mix with the burst's: they are not judged, and the part is INCOMPLETE with the
// figures, never FAIL. Thresholds of rules (the burst's size, headers, 429 bodies) are judged
// as always.

export interface Precondition {
  /** Threshold keys whose figures are only meaningful when this one held. */
  guards: string[];
  /** Why, with what was observed. */
  reason(observed: number | undefined, expression: string): string;
}

export const PRECONDITIONS: Record<string, Precondition> = {
  burst_seconds: {
    guards: ['accepted{phase:sustain,window:measure}', 'rejected{phase:sustain,window:measure}'],
    reason: (observed, expression) =>
      `not judged: the target answered the burst in ${observed === undefined ? 'an unknown time' : `${Math.round(observed * 10) / 10} s`} (the plan allows ${expression.replace(/^max\s*</, '').trim()} s before the sustained phase starts), so the sustained phase's counts mix with the burst's; rerun when the target is quieter, or give the burst more time with the environment variable BURST_ALLOWANCE_SECONDS=N (seconds)`,
  },
};

export interface Judged {
  verdict: ThresholdVerdict;
  /** Set when the threshold is not judged: why. */
  notJudged?: string;
}

/** The verdicts, with each crossed precondition and the thresholds it guards marked not judged. */
export function applyPreconditions(verdicts: readonly ThresholdVerdict[]): Judged[] {
  const off = new Map<string, string>();
  for (const v of verdicts) {
    const p = PRECONDITIONS[v.metric];
    if (!p || v.ok) continue;
    const why = p.reason(v.observed, v.expression);
    off.set(v.metric, why);
    for (const g of p.guards) off.set(g, why);
  }
  return verdicts.map((verdict) => (off.has(verdict.metric) ? { verdict, notJudged: off.get(verdict.metric)! } : { verdict }));
}
