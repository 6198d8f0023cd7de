import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { PartResult } from '../../kernel/results.ts';
import { runLoad } from '../../cli/load/run.ts';
import { metricsPlugin, METRICS_PATH } from '../../sandbox/metrics/plugin.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { startReceiver, type Receiver } from './receiver.ts';

// Live metrics, both ways, from one short mixed-load run on the real k6:
// - k6 streams to a Prometheus remote-write endpoint (--out experimental-prometheus-rw):
//   the in-test receiver decodes the snappy protobuf and finds the requests k6 made;
// - the sandbox's /metrics (prom-client) is scraped and parsed as Prometheus text, and its
//   request counters equal the load run's own counts, endpoint by endpoint.

const KEY = 'ck_test_partner_a_scale';
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-live-'));
let server: SandboxServer;
let rx: Receiver;
let result: PartResult;
let scraped: ReturnType<typeof parsePrometheusTextFormat>;

beforeAll(async () => {
  rx = await startReceiver();
  server = await startSandboxServer({ plugins: [metricsPlugin(), ...defaultPlugins()], validateResponses: false, liquidity: { enabled: false, delaySeconds: 5 }, timeScale: 60 });
  result = await runLoad({
    scenario: 'mixed', tier: 'scale', smoke: true, baseUrl: server.url, apiKey: KEY, reportDir: join(dir, 'load'),
    outs: ['experimental-prometheus-rw'],
    env: { MIXED_SECONDS: '6', K6_PROMETHEUS_RW_SERVER_URL: rx.url, K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s' },
  });
  const res = await fetch(new URL(METRICS_PATH, server.url));
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  scraped = parsePrometheusTextFormat(await res.text());
}, 120_000);
afterAll(async () => {
  await server?.close();
  await rx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const family = (name: string) => scraped.find((f) => f.name === name);

describe('live metrics of a load run', () => {
  it('the run itself passed and made requests', () => {
    expect(result.status, JSON.stringify(result.checks.filter((c) => c.status === 'failed'))).toBe('passed');
    expect(Number(result.figures.requests)).toBeGreaterThan(30);
  });

  it('k6 streamed real samples to the remote-write receiver', () => {
    expect(rx.errors).toEqual([]);
    const samples = rx.series.reduce((a, s) => a + s.samples.length, 0);
    console.log(`remote write: ${rx.requests} requests, ${rx.series.length} series, ${samples} samples decoded`);
    expect(rx.requests).toBeGreaterThan(0);
    const reqs = rx.series.filter((s) => s.labels.__name__ === 'k6_http_reqs_total');
    expect(reqs.length).toBeGreaterThan(0);
    // A counter series is cumulative: its last sample is its total. Summed over the label
    // sets, that is every request k6 made.
    const total = new Map<string, number>();
    for (const s of reqs) {
      const key = JSON.stringify(Object.entries(s.labels).sort());
      for (const x of s.samples) total.set(key, Math.max(total.get(key) ?? 0, x.value));
    }
    expect([...total.values()].reduce((a, b) => a + b, 0)).toBe(result.figures.requests);
    expect(new Set(reqs.map((s) => s.labels.endpoint))).toContain('lend.create');
  });

  it('/metrics counts what the run sent, per endpoint, and reports book depth, outbox backlog and deliveries', () => {
    const requests = family('lendcheck_sandbox_http_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    const sum = (pred: (l: Record<string, string>) => boolean) => requests.metrics.filter((m) => pred(m.labels ?? {})).reduce((a, m) => a + Number(m.value), 0);
    const total = sum(() => true);
    const rejected = sum((l) => l.status === '429');
    console.log(`/metrics: ${total} requests (${rejected} answered 429); the load run counted ${result.figures.requests} (${result.figures.rejected429} 429)`);
    // The ledger audit that ends a writing run reads the touched users back through the same API.
    const audit = Number(result.figures.auditRequests ?? 0);
    const audit429 = Number(result.figures.audit429 ?? 0);
    expect(total).toBe(Number(result.figures.requests) + audit);
    expect(rejected).toBe(Number(result.figures.rejected429) + audit429);
    const perEndpoint = result.series![0].endpoints!;
    expect(perEndpoint.length).toBeGreaterThan(5);
    // The audit lists positions and places and cancels probe lends; every other endpoint is the run's alone.
    const AUDITED = new Set(['positions.list', 'lend.create', 'position.cancel', 'sandbox.clock', 'sandbox.balances']);
    let excess = 0;
    for (const d of perEndpoint) {
      const seen = sum((l) => l.endpoint === d.endpoint && /^2\d\d$/.test(l.status));
      if (AUDITED.has(d.endpoint)) expect(seen, d.endpoint).toBeGreaterThanOrEqual(d.count);
      else expect(seen, d.endpoint).toBe(d.count);
      excess += seen - d.count;
    }
    const auditOnly = sum((l) => /^2\d\d$/.test(l.status) && AUDITED.has(l.endpoint) && !perEndpoint.some((d) => d.endpoint === l.endpoint));
    expect(excess + auditOnly, 'answered requests beyond the run: the audit\'s').toBe(Number(result.figures.audit2xx ?? 0));
    expect(sum((l) => l.endpoint === 'unmatched')).toBe(0);

    const latency = family('lendcheck_sandbox_http_request_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    // parse-prometheus-text-format drops the labels, _count and _sum of a labelled histogram
    // (yunyu/parse-prometheus-text-format#13, fix in the open PR #8), so only its buckets are
    // read back here; the per-endpoint counts are checked on the counter above.
    expect(Object.keys(latency.metrics[0].buckets ?? {})).toContain('+Inf');
    expect(family('lendcheck_sandbox_book_depth')!.metrics.reduce((a, m) => a + Number(m.value), 0)).toBeGreaterThan(0); // the mix leaves resting lends
    expect(Number(family('lendcheck_sandbox_outbox_backlog')!.metrics[0].value)).toBeGreaterThanOrEqual(0);
    expect(family('lendcheck_sandbox_webhook_deliveries')).toBeDefined();
    expect(family('lendcheck_sandbox_webhook_attempts')).toBeDefined();
  });
});
