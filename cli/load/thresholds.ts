// k6 judges thresholds per process and does not aggregate them across execution
// segments, so `--segments N` re-judges them here on the merged samples. Written by hand
// because k6 exposes no evaluator outside its binary; the grammar is k6's documented
// one: `<aggregation> <operator> <number>`, on a metric or a `metric{tag:value,…}` submetric.

export type MetricType = 'counter' | 'rate' | 'trend' | 'gauge';

export interface Aggregate {
  type: MetricType;
  /** counter: count, rate (per second over the run); rate: rate; trend: avg … p(N); gauge: value. */
  get(aggregation: string): number | undefined;
}

export interface Selector {
  metric: string;
  tags: Record<string, string>;
}

export function parseSelector(key: string): Selector {
  const m = /^([^{]+)(?:\{(.*)\})?$/.exec(key.trim());
  if (!m) throw new Error(`threshold metric: cannot read "${key}"`);
  const tags: Record<string, string> = {};
  for (const part of (m[2] ?? '').split(',').filter(Boolean)) {
    const i = part.indexOf(':');
    if (i < 0) throw new Error(`threshold metric "${key}": expected tag:value / received "${part}"`);
    tags[part.slice(0, i).trim()] = part.slice(i + 1).trim().replace(/^["']|["']$/g, '');
  }
  return { metric: m[1].trim(), tags };
}

const OPS: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '===': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

export interface ThresholdVerdict {
  metric: string;
  expression: string;
  ok: boolean;
  observed?: number;
  message?: string;
}

export function evaluate(metric: string, expression: string, agg: Aggregate | undefined): ThresholdVerdict {
  const m = /^\s*(count|rate|value|avg|min|max|med|p\(\d+(?:\.\d+)?\))\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expression);
  if (!m) return { metric, expression, ok: false, message: `expected "<aggregation> <op> <number>" / received "${expression}"` };
  const [, aggregation, op, rhs] = m;
  // A metric without samples reads as zero in every aggregation, as k6 judges it.
  const observed = agg ? agg.get(aggregation) : 0;
  if (observed === undefined) return { metric, expression, ok: false, message: `expected an aggregation ${agg?.type} metrics have / received "${aggregation}"` };
  const ok = OPS[op](observed, Number(rhs));
  return { metric, expression, ok, observed, message: ok ? undefined : `expected ${aggregation} ${op} ${rhs} / received ${round(observed)}` };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
