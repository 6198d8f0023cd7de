import type { PartResult, RunSummary } from '../../kernel/results.ts';

// The figures a run leaves in the history, read from its results JSON (kernel/results.ts):
// per load series and endpoint the latency percentiles and samples, accepted and rejected
// counts, every numeric figure of every part (burst admitted, refill rate, time-to-match…),
// retry timing errors from the chaos timeline, and every check's status.

export interface FigureRow {
  scope: string;
  /** '' when the figure is not per endpoint. */
  endpoint: string;
  metric: string;
  value: number;
}
export interface SampleRow {
  scope: string;
  endpoint: string;
  count: number;
  samples: number[];
}
export interface CheckRow {
  part: string;
  id: string;
  title: string;
  status: string;
}
export interface Extracted {
  figures: FigureRow[];
  samples: SampleRow[];
  checks: CheckRow[];
}

/** A merged part names its figures "<run name>: <figure>" (cli/gate/load-step.ts): split them back. */
function figureScope(p: PartResult, key: string): { scope: string; metric: string } {
  const i = key.lastIndexOf(': ');
  return i > 0 ? { scope: key.slice(0, i), metric: key.slice(i + 2) } : { scope: p.name, metric: key };
}

const sum = (xs: Array<{ value: number }>) => xs.reduce((a, x) => a + x.value, 0);

export function extractRun(summary: Pick<RunSummary, 'parts'>): Extracted {
  const out: Extracted = { figures: [], samples: [], checks: [] };
  const fig = (scope: string, endpoint: string, metric: string, value: number) => {
    if (Number.isFinite(value)) out.figures.push({ scope, endpoint, metric, value });
  };
  // The regression part describes a comparison, not the target: it is not a figure of the run.
  for (const p of summary.parts.filter((x) => x.part !== 'regression')) {
    for (const c of p.checks) out.checks.push({ part: p.part, id: c.id, title: c.title, status: c.status });
    for (const [k, v] of Object.entries(p.figures)) {
      if (typeof v !== 'number') continue;
      const { scope, metric } = figureScope(p, k);
      fig(scope, '', metric, v);
    }
    // The burst a bucket admitted at once, less what it refilled while the burst was in
    // flight (burstSeconds × the tier's rate): the raw count moves with how long the burst
    // took on a busy machine, this one only with the bucket.
    const nums = new Map<string, Map<string, number>>();
    for (const [k, v] of Object.entries(p.figures)) {
      if (typeof v !== 'number') continue;
      const { scope, metric } = figureScope(p, k);
      if (!nums.has(scope)) nums.set(scope, new Map());
      nums.get(scope)!.set(metric, v);
    }
    for (const [scope, m] of nums) {
      const admitted = m.get('burstAccepted');
      if (admitted === undefined) continue;
      fig(scope, '', 'burstNet', Math.round(admitted - ((m.get('tierPerMinute') ?? 0) / 60) * (m.get('burstSeconds') ?? 0)));
    }
    const count = (s: string) => p.checks.filter((c) => c.status === s).length;
    if (p.checks.length) {
      fig(p.name, '', 'checksPassed', count('passed'));
      fig(p.name, '', 'checksFailed', count('failed'));
    }
    for (const s of p.series ?? []) {
      fig(s.name, '', 'accepted', sum(s.accepted));
      fig(s.name, '', 'rejected', sum(s.rejected));
      for (const d of s.endpoints ?? []) {
        fig(s.name, d.endpoint, 'p50', d.p50);
        fig(s.name, d.endpoint, 'p95', d.p95);
        fig(s.name, d.endpoint, 'p99', d.p99);
        fig(s.name, d.endpoint, 'count', d.count);
        out.samples.push({ scope: s.name, endpoint: d.endpoint, count: d.count, samples: d.samples });
      }
    }
    // Retry timing: how far each observed retry landed from its expected offset.
    const errors: number[] = [];
    for (const e of p.timeline ?? []) {
      for (let i = 1; i < Math.min(e.expectedMs.length, e.observedMs.length); i++) errors.push(Math.abs(e.observedMs[i] - e.expectedMs[i]));
    }
    if (p.timeline?.length) {
      fig(p.name, '', 'retryTimingErrorMaxMs', errors.length ? Math.max(...errors) : 0);
      fig(p.name, '', 'retryTimingErrorMeanMs', errors.length ? Math.round((errors.reduce((a, b) => a + b, 0) / errors.length) * 100) / 100 : 0);
      fig(p.name, '', 'retryEventsFailed', p.timeline.filter((e) => e.verdict === 'failed').length);
      if (errors.length) out.samples.push({ scope: p.name, endpoint: 'retry-timing-error', count: errors.length, samples: errors.sort((a, b) => a - b) });
    }
  }
  return out;
}
