import type { CheckResult, Comparison, DiffRow, PartResult } from '../../kernel/results.ts';
import type { CheckRow, Extracted, FigureRow } from './extract.ts';
import { betterWhen, isDuration, isLatency, worsening, type Bound } from './bounds.ts';
import { ALPHA, mannWhitneyU } from './stats.ts';
import type { History, RunRow } from './store.ts';

// One run's figures against a baseline's: a row per figure with the direction of change
// and a significance judgement, the bounds it crosses, and the checks that passed in the
// baseline and fail now.

const keyOf = (r: { scope: string; endpoint: string; metric?: string }) => `${r.scope}\u0000${r.endpoint}\u0000${r.metric ?? ''}`;
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * A rate-limit figure is judged against its tier's own limit, which the run recorded beside it
 * (tierPerMinute, tierBurst, cli/load/run.ts): admitting more than the limit is no improvement,
 * and the limit itself is the answer a correct limiter gives (Starter's 60 a minute is exactly
 * right). So the nearer the limit, the better. Undefined: not such a figure, or no limit recorded.
 */
export function tierLimitOf(figures: Map<string, number>, metric: string): number | undefined {
  const perMinute = figures.get('tierPerMinute');
  if (metric === 'admittedPerMinute') return perMinute;
  if (metric === 'sustainAdmitted') return perMinute !== undefined && figures.has('measureSeconds') ? (perMinute / 60) * figures.get('measureSeconds')! : undefined;
  if (metric === 'burstNet' || metric === 'burstAccepted') return figures.get('tierBurst');
  return undefined;
}

function byScope(x: Extracted): Map<string, Map<string, number>> {
  const m = new Map<string, Map<string, number>>();
  for (const f of x.figures.filter((r) => !r.endpoint)) {
    if (!m.has(f.scope)) m.set(f.scope, new Map());
    m.get(f.scope)!.set(f.metric, f.value);
  }
  return m;
}

export function diffRows(current: Extracted, baseline: Extracted, bounds: Bound[] = []): DiffRow[] {
  const curScopes = byScope(current);
  const baseScopes = byScope(baseline);
  const cur = new Map(current.figures.map((f) => [keyOf(f), f]));
  const base = new Map(baseline.figures.map((f) => [keyOf(f), f]));
  const samplesOf = (x: Extracted) => new Map(x.samples.map((s) => [keyOf(s), s.samples]));
  const curS = samplesOf(current);
  const baseS = samplesOf(baseline);
  const keys = [...new Set([...cur.keys(), ...base.keys()])].sort();
  const rows: DiffRow[] = [];
  for (const k of keys) {
    const c = cur.get(k);
    const b = base.get(k);
    const f = (c ?? b) as FigureRow;
    if (f.metric === 'count') continue; // the sample count is shown with the latency row
    const row: DiffRow = {
      scope: f.scope,
      ...(f.endpoint ? { endpoint: f.endpoint } : {}),
      metric: f.metric,
      baseline: b?.value ?? null,
      current: c?.value ?? null,
      delta: c && b ? round(c.value - b.value) : null,
      deltaPct: c && b && b.value !== 0 ? round(((c.value - b.value) / Math.abs(b.value)) * 100, 1) : null,
      direction: !b ? 'new' : !c ? 'gone' : 'same',
      significance: '',
    };
    // The tier's limit, when both runs measured against the same one.
    const limitNow = tierLimitOf(curScopes.get(f.scope) ?? new Map(), f.metric);
    const limit = limitNow !== undefined && limitNow === tierLimitOf(baseScopes.get(f.scope) ?? new Map(), f.metric) ? limitNow : undefined;
    if (c && b) {
      const better = betterWhen(f.metric);
      if (c.value !== b.value) row.direction = better === 'neither' ? 'changed' : (c.value < b.value) === (better === 'lower') ? 'better' : 'worse';
      if (limit !== undefined && c.value !== b.value) {
        const off = (v: number) => Math.abs(v - limit);
        row.direction = off(c.value) < off(b.value) ? 'better' : off(c.value) > off(b.value) ? 'worse' : 'changed';
      }
      let slower = false;
      const sk = keyOf({ scope: f.scope, endpoint: f.endpoint });
      const cs = curS.get(sk);
      const bs = baseS.get(sk);
      if (isLatency(f.metric) && cs?.length && bs?.length) {
        const t = mannWhitneyU(cs, bs)!;
        row.pValue = Number(t.pValue.toPrecision(3));
        slower = t.effect > 0.5;
        const shift = slower ? 'slower' : 'faster';
        const test = `Mann-Whitney p=${row.pValue}, n=${cs.length}/${bs.length}`;
        // The test is over the endpoint's whole distribution, shared by its p50, p95 and p99 rows:
        // a row that moved the other way (a p95 faster while the distribution is slower) is not
        // called significant, which would contradict its own direction.
        const agrees = row.direction === (slower ? 'worse' : 'better');
        const itself = row.direction === 'same' ? 'unchanged' : row.direction === 'better' ? 'faster' : 'slower';
        row.significance = t.pValue >= ALPHA
          ? `not significant (${test})`
          : agrees
            ? `significant: ${shift} (${test})`
            : `not significant for this figure (${itself}): the distribution as a whole is ${shift} (${test})`;
      } else if (isLatency(f.metric)) {
        row.significance = 'no samples kept: judged on the values alone';
      } else if (isDuration(f.metric)) {
        row.significance = 'one value per run: not tested (per-endpoint rows carry the samples)';
      } else if (limit !== undefined) {
        const where = c.value === limit ? 'at' : c.value > limit ? `${round(c.value - limit)} above` : `${round(limit - c.value)} below`;
        row.significance = `exact: ${where} the tier's limit ${round(limit)}`;
      } else {
        row.significance = c.value === b.value ? 'exact: unchanged' : 'exact: a real change';
      }
      for (const bound of bounds) {
        if (!bound.metrics(f.metric)) continue;
        const by = limit !== undefined ? worseningFrom(bound, limit, b.value, c.value) : worsening(bound, f.metric, b.value, c.value);
        // A latency figure crosses its bound only when the whole distribution moved slower
        // too: one noisy percentile on a busy machine is not a regression.
        const real = !isLatency(f.metric) || row.pValue === undefined || (row.pValue < ALPHA && slower);
        if (by > bound.limit && real) row.regression = bound.text;
      }
    }
    rows.push(row);
  }
  return rows;
}

/** How much further from the tier's limit a figure moved, in the bound's unit (0 when not further). */
function worseningFrom(bound: Bound, limit: number, baseline: number, current: number): number {
  const by = Math.abs(current - limit) - Math.abs(baseline - limit);
  if (by <= 0) return 0;
  if (!bound.relative) return by;
  return (by / Math.max(Math.abs(baseline - limit), Math.abs(limit), 1)) * 100;
}

export function newFailures(current: CheckRow[], baseline: CheckRow[]): Comparison['newFailures'] {
  const passed = new Set(baseline.filter((c) => c.status === 'passed').map((c) => `${c.part}\u0000${c.id}`));
  return current.filter((c) => c.status === 'failed' && passed.has(`${c.part}\u0000${c.id}`)).map((c) => ({ id: c.id, title: c.title, part: c.part }));
}

/** Figures worth a sparkline: latency per endpoint, burst, refill, time to match, retry timing. */
const TRENDED = /^(p95|burstNet|admittedPerMinute|accepted|time to match p95 ms|time_to_match_ms_p95|retryTimingErrorMaxMs)$/;

/** The last `n` runs against the same target (oldest first), each trended figure's values. */
export function trends(history: History, target: string, current: { runId: string; figures: FigureRow[] }, n = 10): Comparison['trends'] {
  const earlier = history.runs({ target, limit: n }).filter((r) => r.runId !== current.runId).slice(0, n - 1).reverse();
  const runs = [...earlier.map((r) => ({ runId: r.runId, figures: history.load(r).figures })), current];
  const lines = new Map<string, Comparison['trends'][number]>();
  for (const f of current.figures.filter((x) => TRENDED.test(x.metric))) {
    lines.set(keyOf(f), { scope: f.scope, ...(f.endpoint ? { endpoint: f.endpoint } : {}), metric: f.metric, points: [] });
  }
  for (const r of runs) {
    const by = new Map(r.figures.map((f) => [keyOf(f), f.value]));
    for (const [k, line] of lines) line.points.push({ runId: r.runId, value: by.get(k) ?? null });
  }
  return [...lines.values()];
}

export interface CompareInput {
  runId: string;
  target: string;
  current: Extracted;
  baseline?: { row: RunRow; data: Extracted };
  baselineReason: string;
  bounds: Bound[];
  history?: History;
}

export function compareRuns(i: CompareInput): Comparison {
  return {
    runId: i.runId,
    baselineRunId: i.baseline?.row.runId ?? null,
    baselineReason: i.baselineReason,
    rows: i.baseline ? diffRows(i.current, i.baseline.data, i.bounds) : [],
    newFailures: i.baseline ? newFailures(i.current.checks, i.baseline.data.checks) : [],
    trends: i.history ? trends(i.history, i.target, { runId: i.runId, figures: i.current.figures }) : [],
  };
}

const rowName = (r: DiffRow) => `${r.scope}${r.endpoint ? ` ${r.endpoint}` : ''} ${r.metric}`;
const fmt = (x: number | null) => (x === null ? '—' : String(round(x)));

/** The regression part of a gate run: one check per bound, one for new failures. */
export function comparisonPart(c: Comparison, bounds: Bound[], meta: { target: string; profile: string; startedAt: string; durationMs: number }): PartResult {
  const base = { part: 'regression' as const, name: c.baselineRunId ? `against ${c.baselineRunId}` : 'no baseline', target: meta.target, profile: meta.profile, startedAt: meta.startedAt, durationMs: meta.durationMs, comparison: c };
  if (!c.baselineRunId) return { ...base, status: 'skipped', skipReason: `skipped: ${c.baselineReason}`, checks: [], figures: {} };
  const checks: CheckResult[] = bounds.map((b) => {
    const over = c.rows.filter((r) => r.regression === b.text);
    const compared = c.rows.filter((r) => b.metrics(r.metric) && r.baseline !== null && r.current !== null).length;
    return {
      id: `regression:${b.text}`,
      title: `${b.text}: no figure got worse than ${b.relative ? `${b.limit}% of` : `${b.limit} beyond`} the baseline (${compared} compared)`,
      requirements: [],
      status: compared === 0 ? 'skipped' : over.length ? 'failed' : 'passed',
      durationMs: 0,
      ...(compared === 0
        ? { message: `skipped: neither run has a figure ${b.name} covers` }
        : over.length
          ? { message: over.map((r) => `${rowName(r)}: expected at most ${b.text} worse than ${fmt(r.baseline)} / received ${fmt(r.current)} (${r.deltaPct === null ? `${r.delta}` : `${r.deltaPct > 0 ? '+' : ''}${r.deltaPct}%`}; ${r.significance})`).join('; ') }
          : {}),
      notes: [],
    };
  });
  checks.push({
    id: 'regression:new-failures',
    title: 'no check that passed in the baseline fails now',
    requirements: [],
    status: c.newFailures.length ? 'failed' : 'passed',
    durationMs: 0,
    ...(c.newFailures.length ? { message: `new failures: ${c.newFailures.map((f) => `${f.part} ${f.id} (${f.title})`).join('; ')}` } : {}),
    notes: [],
  });
  const regressions = c.rows.filter((r) => r.regression).length;
  return {
    ...base,
    status: checks.some((x) => x.status === 'failed') ? 'failed' : 'passed',
    checks,
    figures: { figuresCompared: c.rows.length, regressions, newFailures: c.newFailures.length, worse: c.rows.filter((r) => r.direction === 'worse').length, better: c.rows.filter((r) => r.direction === 'better').length },
  };
}
