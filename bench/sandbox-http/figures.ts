// The figures of one run of bench/sandbox-http.ts, and how slices of a round add up: wrk's
// histograms merge exactly, so a round's p50 and p99 are those of all its slices together.

export interface Figures {
  /** Answers by status code. */
  statuses?: Record<number, number>;
  /** Server CPU per request (user+system of its process), when /proc is there. */
  cpuUs?: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  /** How long the run lasted (its share of a round when sliced). */
  seconds?: number;
  /** Every latency recorded, as [µs, count] by value (wrk's own histogram), so slices merge exactly. */
  hist?: Array<[number, number]>;
}

/** The p-th percentile (0-100) of a [value, count] histogram sorted by value, as wrk reads it. */
export function percentile(hist: Array<[number, number]>, p: number): number {
  const n = hist.reduce((k, [, c]) => k + c, 0);
  const rank = Math.max(1, Math.round((p / 100) * n + 0.5)); // wrk's stats_percentile
  let seen = 0;
  for (const [v, c] of hist) if ((seen += c) >= rank) return v;
  return hist[hist.length - 1]?.[0] ?? 0;
}

/** Slices of one round as one figure: requests over the summed time; p50 and p99 of all the
 *  slices' latencies together when each carries its histogram, else the median p50 and the
 *  worst p99 (the worst of five one-second p99s overstates a round's: 6-19 ms for POST /lend
 *  in one run where its 5 s p99 was 10). */
export function sum(parts: Figures[]): Figures {
  if (parts.length === 1) return parts[0]!;
  const total = parts.reduce((n, f) => n + f.total, 0);
  const time = parts.reduce((n, f) => n + f.total / f.rps, 0);
  const merged = parts.every((f) => f.hist?.length) ? mergeHists(parts.map((f) => f.hist!)) : undefined;
  const p50s = parts.map((f) => f.p50).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const f of parts) for (const [k, v] of Object.entries(f.statuses ?? {})) statuses[Number(k)] = (statuses[Number(k)] ?? 0) + v;
  const cpu = parts.every((f) => f.cpuUs !== undefined) ? parts.reduce((n, f) => n + f.cpuUs! * f.total, 0) / total : undefined;
  return {
    rps: total / time,
    p50: merged ? percentile(merged, 50) / 1000 : p50s[Math.floor(p50s.length / 2)]!,
    p99: merged ? percentile(merged, 99) / 1000 : Math.max(...parts.map((f) => f.p99)),
    errors: parts.reduce((n, f) => n + f.errors, 0),
    total,
    statuses,
    ...(cpu !== undefined ? { cpuUs: cpu } : {}),
    seconds: time,
  };
}

function mergeHists(hists: Array<Array<[number, number]>>): Array<[number, number]> {
  const m = new Map<number, number>();
  for (const h of hists) for (const [v, c] of h) m.set(v, (m.get(v) ?? 0) + c);
  return [...m].sort((a, b) => a[0] - b[0]);
}
