// Per-endpoint latency distributions of a run, for the run history (reports/history/):
// a comparison between runs tests the two sample sets, not two single percentiles.
import type { LatencyDistribution } from '../../kernel/results.ts';
import { percentile, type SampleSet } from './samples.ts';

/** Beyond this many samples a run keeps evenly spaced order statistics (the shape, not every point). */
export const MAX_KEPT_SAMPLES = 512;

/** Evenly spaced order statistics of a sorted array: min and max kept, length ≤ max. */
export function thin(sorted: number[], max = MAX_KEPT_SAMPLES): number[] {
  if (sorted.length <= max) return sorted;
  return Array.from({ length: max }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (max - 1))]);
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Latency of the 2xx answers per `endpoint` tag (a 429 is the limiter's answer, not the endpoint's work). */
export function latencyDistributions(set: SampleSet): LatencyDistribution[] {
  const by = new Map<string, number[]>();
  for (const s of set.samples.get('http_req_duration') ?? []) {
    if (!s.tags.endpoint || !/^2\d\d$/.test(s.tags.status ?? '')) continue;
    const list = by.get(s.tags.endpoint) ?? [];
    list.push(s.value);
    by.set(s.tags.endpoint, list);
  }
  return [...by].sort(([a], [b]) => a.localeCompare(b)).map(([endpoint, xs]) => {
    const sorted = xs.sort((a, b) => a - b);
    return {
      endpoint,
      count: sorted.length,
      p50: round2(percentile(sorted, 50)),
      p95: round2(percentile(sorted, 95)),
      p99: round2(percentile(sorted, 99)),
      samples: thin(sorted).map(round2),
    };
  });
}
