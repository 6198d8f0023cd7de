// The matching run's figures from k6's raw samples: time-to-match p50/p95/p99 overall and
// per market, the match ratio, the order rate achieved, and how the key pool was used (the
// busiest key's request rate beside its tier's sustained rate).
import type { MatchWatch } from './match-watch.ts';
import { keyRate, type PoolKey } from './pool.ts';
import { aggregate, select, type SampleSet } from './samples.ts';
import { parseSelector } from './thresholds.ts';

const r2 = (n: number) => Math.round(n * 100) / 100;

function percentiles(set: SampleSet, key: string, prefix: string, out: Record<string, number | string>): void {
  const agg = aggregate(set, parseSelector(key));
  if (!agg) return;
  for (const [p, name] of [['med', 'p50'], ['p(95)', 'p95'], ['p(99)', 'p99']] as const) {
    const v = agg.get(p);
    if (v !== undefined) out[`${prefix} ${name} ms`] = r2(v);
  }
}

export function matchingFigures(set: SampleSet, i: { watch?: MatchWatch; pool?: PoolKey[]; env: Record<string, string> }): Record<string, number | string> {
  const f: Record<string, number | string> = {};
  f.timeToMatchFrom = i.watch?.mode === 'webhooks' ? 'signed position.matched webhooks (receiver store)' : `polling GET /positions/{id}${i.watch?.mode === 'polling' ? ` (${i.watch.reason})` : ''}`;
  // Polling cannot see a match sooner than its interval: state the floor beside the figures.
  if (i.watch?.mode !== 'webhooks') f.timeToMatchFloorMs = Number(i.env.POLL_SECONDS || (i.env.SMOKE === '1' ? 0.25 : 1)) * 1000;
  percentiles(set, 'time_to_match_ms', 'time to match', f);
  percentiles(set, 'order_accept_ms', 'order accept', f);
  const marketsSeen = new Set((set.samples.get('matched') ?? []).map((s) => s.tags.market).filter(Boolean));
  for (const m of [...marketsSeen].sort()) {
    percentiles(set, `time_to_match_ms{market:${m}}`, `time to match ${m}`, f);
    const ratio = aggregate(set, parseSelector(`matched{market:${m}}`))?.get('rate');
    if (ratio !== undefined) f[`match ratio ${m}`] = Math.round(ratio * 10_000) / 10_000;
  }
  const matchedSamples = set.samples.get('matched') ?? [];
  f.orders = matchedSamples.length;
  f.ordersMatched = matchedSamples.filter((s) => s.value !== 0).length;
  f.matchRatio = matchedSamples.length ? Math.round((f.ordersMatched / matchedSamples.length) * 10_000) / 10_000 : 0;
  // Orders over the span in which they were acknowledged (the arrival-rate phase).
  const accepts = select(set, parseSelector('order_accept_ms'));
  if (accepts.length > 1) {
    const span = (Math.max(...accepts.map((s) => s.t)) - Math.min(...accepts.map((s) => s.t))) / 1000;
    if (span > 0) f.ordersPerSecond = r2(accepts.length / span);
  }
  if (i.pool) {
    f.poolKeys = i.pool.length;
    f.poolPartners = new Set(i.pool.map((k) => k.partnerId)).size;
    const reqs = (set.samples.get('http_reqs') ?? []).filter((s) => s.tags.pool_key !== undefined);
    const perKey = new Map<string, number[]>();
    for (const s of reqs) (perKey.get(s.tags.pool_key) ?? perKey.set(s.tags.pool_key, []).get(s.tags.pool_key)!).push(s.t);
    let worst = 0;
    let worstShare = 0;
    for (const [idx, ts] of perKey) {
      const span = Math.max(1, (Math.max(...ts) - Math.min(...ts)) / 1000);
      const rate = ts.length / span;
      const share = rate / keyRate(i.pool[Number(idx)] ?? { tier: 'scale' });
      if (share > worstShare) [worst, worstShare] = [rate, share];
    }
    if (perKey.size) {
      f.busiestKeyRequestsPerSecond = r2(worst);
      f.busiestKeyShareOfTier = r2(worstShare);
    }
  }
  return f;
}
