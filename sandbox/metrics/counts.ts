import { Counter, type Histogram, type Registry } from 'prom-client';

// The request counter and latency histogram kept as plain numbers, handed to prom-client
// only when /metrics is scraped. prom-client's own inc() and observe() hash the label
// object on every call, even through a cached child: 6-7 % of a request's CPU in a load
// run, where most answers are the limiter's 429s.
// Here a request costs a Map lookup by endpoint, one by status, a short bucket search and
// a few additions; the text prom-client writes is byte for byte what its Counter and
// Histogram would write for the same observations (counts.test.ts).

export const DURATION_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const B = DURATION_BUCKETS.length;

/** Requests of one endpoint, method and status; `exported` is what the counter holds of `n`. */
export interface Cell {
  readonly endpoint: string;
  readonly method: string;
  readonly status: number;
  n: number;
  exported: number;
}

/** One endpoint's latency histogram (per bucket, not cumulative) and its requests by status. */
export class EndpointCounts {
  readonly buckets = new Float64Array(B);
  sum = 0;
  count = 0;
  // An endpoint id names one method (only 'unmatched' sees several): its cells sit in a
  // field, any other method's in a map beside it.
  readonly byStatus = new Map<number, Cell>();
  others: Map<string, Map<number, Cell>> | undefined;
  constructor(readonly name: string, readonly method: string) {}
}

export class RequestCounts {
  private readonly byEndpoint = new Map<string, EndpointCounts>();
  /** In first-seen order, which is the order prom-client lists label sets in. */
  readonly cells: Cell[] = [];
  readonly endpoints: EndpointCounts[] = [];

  record(endpoint: string, method: string, status: number, seconds: number): void {
    let e = this.byEndpoint.get(endpoint);
    if (!e) {
      this.byEndpoint.set(endpoint, (e = new EndpointCounts(endpoint, method)));
      this.endpoints.push(e);
    }
    let statuses = e.byStatus;
    if (method !== e.method) {
      const others = (e.others ??= new Map());
      let s = others.get(method);
      if (!s) others.set(method, (s = new Map()));
      statuses = s;
    }
    const c = statuses.get(status);
    if (c) c.n++;
    else {
      const cell = { endpoint, method, status, n: 1, exported: 0 };
      statuses.set(status, cell);
      this.cells.push(cell);
    }
    // prom-client's rule: the first bound the value does not exceed; beyond the last, +Inf only.
    let i = 0;
    while (i < B && seconds > DURATION_BUCKETS[i]) i++;
    if (i < B) e.buckets[i]++;
    e.sum += seconds;
    e.count++;
  }
}

type Family = { name: string; help: string; registry: Registry };

/** The counter, brought up to date before each scrape by what was counted since the last one.
 *  A delta rather than a rewrite, so that a reset (the registry's resetMetrics) holds: what
 *  was counted before it is marked exported and never reaches the counter. (Label sets seen
 *  again after a reset keep their first-seen order, where prom-client's would list anew.) */
export function requestsCounter(counts: RequestCounts, f: Family): Counter<'endpoint' | 'method' | 'status'> {
  class RequestsCounter extends Counter<'endpoint' | 'method' | 'status'> {
    reset(): void {
      super.reset();
      for (const c of counts.cells) c.exported = c.n;
    }
  }
  return new RequestsCounter({
    name: f.name,
    help: f.help,
    labelNames: ['endpoint', 'method', 'status'],
    registers: [f.registry],
    collect() {
      for (const c of counts.cells) {
        if (c.n === c.exported) continue;
        this.inc({ endpoint: c.endpoint, method: c.method, status: String(c.status) }, c.n - c.exported);
        c.exported = c.n;
      }
    },
  });
}

/** The histogram, as a metric object of its own: prom-client's Histogram cannot be handed
 *  bucket counts, only observations. Its values are shaped as Histogram.get() shapes them
 *  (cumulative buckets, `le` before the metric's labels, then +Inf, _sum and _count). */
export function durationHistogram(counts: RequestCounts, f: Family): void {
  const bucket = `${f.name}_bucket`;
  const metric = {
    name: f.name,
    help: f.help,
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const e of counts.endpoints) {
        // Reset and not observed since: prom-client lists no such label set either (one
        // observed again keeps its old place here, where prom-client would list it last).
        if (e.count === 0) continue;
        const endpoint = e.name;
        let acc = 0;
        for (let i = 0; i < B; i++) values.push({ labels: { le: DURATION_BUCKETS[i], endpoint }, value: (acc += e.buckets[i]), metricName: bucket });
        values.push(
          { labels: { le: '+Inf', endpoint }, value: e.count, metricName: bucket },
          { labels: { endpoint }, value: e.sum, metricName: `${f.name}_sum` },
          { labels: { endpoint }, value: e.count, metricName: `${f.name}_count` },
        );
      }
      return Promise.resolve({ name: f.name, help: f.help, type: 'histogram', aggregator: 'sum', values });
    },
    reset() {
      for (const e of counts.endpoints) {
        e.buckets.fill(0);
        e.sum = 0;
        e.count = 0;
      }
    },
  };
  // The registry reads only these members (name, get, reset, type, aggregator); the typings
  // admit nothing but prom-client's own classes.
  f.registry.registerMetric(metric as unknown as Histogram);
}
