import { errorFunction, wilcoxonRankSum } from 'simple-statistics';

// Two-sample Mann-Whitney U test, two-sided, normal approximation with tie and
// continuity correction. simple-statistics gives the rank sum (ties averaged) and erf;
// no maintained JS package returns the two-sample test's p-value, so the textbook
// formula from U to p is written here. Latency samples from one run are rarely normal and
// often heavy-tailed: a rank test compares the whole distributions without assuming either.

export interface UTest {
  /** U of the current sample against the baseline. */
  u: number;
  /** P(current > baseline) for a random pair (ties count half): 0.5 means no shift. */
  effect: number;
  z: number;
  pValue: number;
}

const normalCdf = (z: number) => 0.5 * (1 + errorFunction(z / Math.SQRT2));

export function mannWhitneyU(current: number[], baseline: number[]): UTest | undefined {
  const n1 = current.length;
  const n2 = baseline.length;
  if (n1 === 0 || n2 === 0) return undefined;
  const r1 = wilcoxonRankSum(current, baseline);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  // Tie correction: Σ(t³ − t) over groups of equal values in the pooled sample.
  const counts = new Map<number, number>();
  for (const x of [...current, ...baseline]) counts.set(x, (counts.get(x) ?? 0) + 1);
  let ties = 0;
  for (const t of counts.values()) ties += t * t * t - t;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  const mean = (n1 * n2) / 2;
  if (variance <= 0) return { u, effect: u / (n1 * n2), z: 0, pValue: 1 };
  const diff = u - mean;
  const z = (Math.sign(diff) * Math.max(0, Math.abs(diff) - 0.5)) / Math.sqrt(variance);
  const pValue = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
  return { u, effect: u / (n1 * n2), z, pValue };
}

/** The level below which a difference between two latency distributions is called significant. */
export const ALPHA = 0.01;
