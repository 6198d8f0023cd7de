// Which way is worse for each figure, and the --max-regression bounds
// ("p95=10%,burst=0"): a bound names a family of figures and how far they may get worse.

export type Better = 'lower' | 'higher' | 'neither';

/** Latency percentiles: compared as sample distributions when both runs kept samples. */
export const isLatency = (metric: string) => /^p\d+$/.test(metric);

/** A duration figure that is one number (a part's own percentile, a timing error): no samples to test. */
export const isDuration = (metric: string) => /(Ms|_ms|\bms)$|_ms_p\d+$/.test(metric);

export function betterWhen(metric: string): Better {
  if (isLatency(metric)) return 'lower';
  if (/^(burstAccepted|burstNet|admittedPerMinute|sustainAdmitted|accepted|checksPassed|ordersMatched|matchRatio)$/.test(metric) || metric.startsWith('match ratio ')) return 'higher';
  if (isDuration(metric) || /(Failed|Violations|ErrorRate)$/.test(metric) || metric === 'checksFailed') return 'lower';
  return 'neither';
}

/** cli/load/matching-figures.ts names it "time to match p95 ms" (earlier runs: time_to_match_ms_p95). */
export function isTimeToMatchP95(metric: string): boolean {
  return metric === 'time to match p95 ms' || metric === 'time_to_match_ms_p95';
}

export interface Bound {
  /** As written, e.g. "p95=10%". */
  text: string;
  name: string;
  /** Relative (a share of the baseline) or absolute (in the figure's unit). */
  relative: boolean;
  limit: number;
  metrics: (metric: string) => boolean;
}

/** Bound names and the figures each covers. */
export const BOUND_FAMILIES: Record<string, { covers: (metric: string) => boolean; what: string }> = {
  p50: { covers: (m) => m === 'p50', what: 'median latency per endpoint' },
  p95: { covers: (m) => m === 'p95', what: 'p95 latency per endpoint' },
  p99: { covers: (m) => m === 'p99', what: 'p99 latency per endpoint' },
  burst: { covers: (m) => m === 'burstNet', what: 'requests a full bucket admitted at once, less its refill during the burst' },
  refill: { covers: (m) => m === 'admittedPerMinute', what: 'sustained admitted rate per minute' },
  ttm: { covers: isTimeToMatchP95, what: 'time to match (p95 over all markets)' },
  retry: { covers: (m) => m === 'retryTimingErrorMaxMs', what: 'largest retry timing error' },
  failed: { covers: (m) => m === 'checksFailed', what: 'failed checks per part' },
};

export function parseBounds(text: string | undefined): Bound[] {
  if (!text) return [];
  return text.split(',').map((s) => s.trim()).filter(Boolean).map((part) => {
    const m = /^([a-z0-9]+)=(\d+(?:\.\d+)?)(%|ms)?$/i.exec(part);
    if (!m) throw new Error(`--max-regression: expected name=N% or name=N (e.g. p95=10%,burst=0) / received "${part}"`);
    const family = BOUND_FAMILIES[m[1]];
    if (!family) throw new Error(`--max-regression: unknown figure "${m[1]}": valid names are ${Object.keys(BOUND_FAMILIES).join(', ')}`);
    return { text: part, name: m[1], relative: m[3] === '%', limit: Number(m[2]), metrics: family.covers };
  });
}

/** How far a figure got worse, in the bound's unit (0 when it did not). */
export function worsening(bound: Bound, metric: string, baseline: number, current: number): number {
  const sign = betterWhen(metric) === 'higher' ? -1 : 1;
  const by = sign * (current - baseline);
  if (by <= 0) return 0;
  if (!bound.relative) return by;
  return baseline === 0 ? Infinity : (by / Math.abs(baseline)) * 100;
}
