// Reads k6's NDJSON output (`--out json=…`) into per-metric samples, so figures, charts
// and merged thresholds come from the raw data of every segment rather than from
// summaries that cannot be added up (percentiles).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Aggregate, MetricType, Selector } from './thresholds.ts';

export interface Sample {
  t: number;
  value: number;
  tags: Record<string, string>;
}

export interface SampleSet {
  types: Map<string, MetricType>;
  samples: Map<string, Sample[]>;
  firstMs: number;
  lastMs: number;
}

export function emptySet(): SampleSet {
  return { types: new Map(), samples: new Map(), firstMs: Infinity, lastMs: -Infinity };
}

interface Line {
  type: 'Metric' | 'Point';
  metric: string;
  data: { type?: MetricType; time?: string; value?: number; tags?: Record<string, string> | null };
}

/** Adds one NDJSON file to `into`; `keep` limits which metrics are stored (memory). */
export async function readK6Json(file: string, into: SampleSet, keep: (metric: string) => boolean = () => true): Promise<SampleSet> {
  const rl = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const raw of rl) {
    if (!raw) continue;
    const line = JSON.parse(raw) as Line;
    if (line.type === 'Metric') {
      if (line.data.type) into.types.set(line.metric, line.data.type);
      continue;
    }
    if (line.type !== 'Point' || !keep(line.metric)) continue;
    const t = Date.parse(line.data.time ?? '');
    const list = into.samples.get(line.metric) ?? [];
    list.push({ t, value: Number(line.data.value), tags: line.data.tags ?? {} });
    into.samples.set(line.metric, list);
    if (t < into.firstMs) into.firstMs = t;
    if (t > into.lastMs) into.lastMs = t;
  }
  return into;
}

export function select(set: SampleSet, sel: Selector): Sample[] {
  const all = set.samples.get(sel.metric) ?? [];
  const want = Object.entries(sel.tags);
  return want.length ? all.filter((s) => want.every(([k, v]) => s.tags[k] === v)) : all;
}

/** k6's percentile: linear interpolation between closest ranks. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function aggregate(set: SampleSet, sel: Selector): Aggregate | undefined {
  const type = set.types.get(sel.metric);
  const xs = select(set, sel);
  if (!type || xs.length === 0) return undefined;
  const seconds = Math.max(1e-9, (set.lastMs - set.firstMs) / 1000);
  const values = xs.map((s) => s.value);
  let sorted: number[] | undefined;
  return {
    type,
    get(a: string): number | undefined {
      switch (type) {
        case 'counter':
          if (a === 'count') return values.reduce((x, y) => x + y, 0);
          if (a === 'rate') return values.reduce((x, y) => x + y, 0) / seconds;
          return undefined;
        case 'rate':
          return a === 'rate' ? values.filter((v) => v !== 0).length / values.length : undefined;
        case 'gauge':
          return a === 'value' ? values[values.length - 1] : undefined;
        case 'trend': {
          sorted ??= [...values].sort((x, y) => x - y);
          if (a === 'avg') return values.reduce((x, y) => x + y, 0) / values.length;
          if (a === 'min') return sorted[0];
          if (a === 'max') return sorted[sorted.length - 1];
          if (a === 'med') return percentile(sorted, 50);
          const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(a);
          return p ? percentile(sorted, Number(p[1])) : undefined;
        }
      }
    },
  };
}

/** Per-second sums of the selected samples, t from `originMs`. */
export function perSecond(samples: Sample[], originMs: number, seconds: number): Array<{ t: number; value: number }> {
  const out = Array.from({ length: Math.max(0, Math.ceil(seconds)) }, (_, t) => ({ t, value: 0 }));
  for (const s of samples) {
    const i = Math.floor((s.t - originMs) / 1000);
    if (i >= 0 && i < out.length) out[i].value += s.value;
  }
  return out;
}
