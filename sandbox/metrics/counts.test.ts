import { afterEach, describe, expect, it, vi } from 'vitest';
import { Counter, Histogram, Registry, type OpenMetricsContentType } from 'prom-client';
import { API_VERSION_PREFIX, defaultProfile } from '../../contract/index.ts';
import type { Answer } from '../answer/answer.ts';
import type { SandboxRequest } from '../pipeline/request.ts';
import type { Stage } from '../pipeline/stage.ts';
import type { SandboxContext } from '../pipeline/plugin.ts';
import { DURATION_BUCKETS } from './counts.ts';
import { metricsPlugin } from './plugin.ts';

// The stage keeps its own counts and hands them to prom-client at scrape time; what /metrics
// says must be what prom-client's Counter and Histogram said when the stage fed them each
// request (the code this replaced), to the byte.

const REQUESTS = 'lendcheck_sandbox_http_requests_total';
const DURATION = 'lendcheck_sandbox_http_request_duration_seconds';
const FAMILIES = [REQUESTS, DURATION];

type Sent = { method: string; path: string; endpoint?: string; keyed: boolean; status: number; ms: number; later: boolean };

/** A seeded generator, so a failure can be replayed. */
function lcg(seed: number) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

function requests(n: number, seed: number): Sent[] {
  const r = lcg(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  // Every bound exactly, just either side of it, zero, and beyond the last bound.
  const edges = [0, ...DURATION_BUCKETS.flatMap((b) => [b * 1000, b * 1000 - 1e-6, b * 1000 + 1e-6]), 5000.5, 7000, 61_234.5];
  const routed = [
    { method: 'POST', path: '/lend', endpoint: 'lend.create' },
    { method: 'GET', path: '/rates', endpoint: 'rates.get' },
    { method: 'GET', path: '/positions/p1', endpoint: 'position.get' },
    { method: 'DELETE', path: '/webhooks/w1', endpoint: 'webhooks.delete' },
  ];
  // The router named nothing (no route, or a method the path lacks): counted as 'unmatched'.
  const unrouted = [
    { method: 'GET', path: '/markets/m1/orderbook' },
    { method: 'GET', path: '/nothing' },
    { method: 'POST', path: '/nothing' },
    { method: 'PUT', path: '/lend' },
    { method: 'GET', path: '/sandbox/clock' },
  ];
  return Array.from({ length: n }, () => {
    const to = r() < 0.7 ? pick(routed) : pick(unrouted);
    const ms = r() < 0.3 ? pick(edges) : r() < 0.9 ? r() * 12 : r() * 8000;
    return { ...to, path: `${API_VERSION_PREFIX}${to.path}`, keyed: r() < 0.8, status: pick([200, 201, 429, 429, 429, 401, 404, 500]), ms, later: r() < 0.2 };
  });
}

/** prom-client fed per request, as the stage used to. */
function reference(registry: Registry, help: Record<string, string>) {
  const counter = new Counter({ name: REQUESTS, help: help[REQUESTS], labelNames: ['endpoint', 'method', 'status'], registers: [registry] });
  const histogram = new Histogram({ name: DURATION, help: help[DURATION], labelNames: ['endpoint'], buckets: [...DURATION_BUCKETS], registers: [registry] });
  return (s: Sent) => {
    const endpoint = s.endpoint ?? 'unmatched';
    counter.labels({ endpoint, method: s.method, status: String(s.status) }).inc();
    histogram.labels({ endpoint }).observe(s.ms / 1000);
  };
}

/** The plugin's stage, its clock reading 0 when a request comes and `ms` when it is answered. */
function sandbox(registry: Registry) {
  const stage: Stage = metricsPlugin({ registry }).stage!({ profile: defaultProfile } as SandboxContext);
  const now = vi.spyOn(performance, 'now');
  return async (s: Sent) => {
    now.mockReturnValueOnce(0).mockReturnValueOnce(s.ms);
    const req = { method: s.method, path: s.path, endpoint: s.endpoint, header: (h: string) => (h === 'authorization' && s.keyed ? 'Bearer k' : undefined) } as SandboxRequest;
    const a: Answer = { status: s.status, headers: {}, body: null };
    await stage(req, () => (s.later ? Promise.resolve(a) : a));
  };
}

function registry(openMetrics: boolean): Registry {
  const r = new Registry();
  // The typings tie a registry's format to its type, and the plugin takes the Prometheus one.
  if (openMetrics) (r as unknown as Registry<OpenMetricsContentType>).setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return r;
}

async function pair(openMetrics = false) {
  const ours = registry(openMetrics);
  const feed = sandbox(ours);
  const help = Object.fromEntries((await ours.getMetricsAsJSON()).map((m) => [m.name, m.help]));
  const theirs = registry(openMetrics);
  const ref = reference(theirs, help);
  const send = async (xs: Sent[]) => {
    for (const s of xs) {
      await feed(s);
      ref(s);
    }
  };
  const text = async (r: Registry) => (await Promise.all(FAMILIES.map((f) => r.getSingleMetricAsString(f)))).join('\n\n');
  return { ours, theirs, send, text };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('request counts at scrape time', () => {
  it('write the same text as prom-client fed per request, scrape after scrape', async () => {
    const { ours, theirs, send, text } = await pair();
    expect(await text(ours)).toBe(await text(theirs)); // nothing yet
    for (const [n, seed] of [[1, 1], [300, 2], [2000, 3]]) {
      await send(requests(n, seed));
      const t = await text(ours);
      expect(t).toBe(await text(theirs));
      expect(t).toContain(`${DURATION}_bucket{le="0.001",endpoint="lend.create"}`);
    }
    expect(await text(ours)).toContain('endpoint="unmatched",method="PUT"');
    expect(await text(ours)).toContain(`${DURATION}_bucket{le="+Inf",endpoint="unmatched"}`);
    // A second scrape with nothing between adds nothing.
    expect(await text(ours)).toBe(await text(theirs));
  });

  it('count a duration exactly on a bound in that bound, and one beyond the last only in +Inf', async () => {
    const { ours, send } = await pair();
    const at = (ms: number): Sent => ({ method: 'GET', path: `${API_VERSION_PREFIX}/rates`, endpoint: 'rates.get', keyed: true, status: 200, ms, later: false });
    await send([at(1), at(2.5), at(5000), at(5000.001)]);
    const t = await ours.getSingleMetricAsString(DURATION);
    expect(t).toContain(`${DURATION}_bucket{le="0.001",endpoint="rates.get"} 1\n`);
    expect(t).toContain(`${DURATION}_bucket{le="0.0025",endpoint="rates.get"} 2\n`);
    expect(t).toContain(`${DURATION}_bucket{le="5",endpoint="rates.get"} 3\n`);
    expect(t).toContain(`${DURATION}_bucket{le="+Inf",endpoint="rates.get"} 4\n`);
  });

  it('write the same OpenMetrics text', async () => {
    const { ours, theirs, send, text } = await pair(true);
    expect(ours.contentType).toBe(Registry.OPENMETRICS_CONTENT_TYPE);
    await send(requests(500, 4));
    expect(await text(ours)).toBe(await text(theirs));
    expect(await ours.metrics()).toContain(`${REQUESTS.replace(/_total$/, '')}_total{endpoint=`);
  });

  it('forget what came before a reset, as prom-client does', async () => {
    const { ours, theirs, send, text } = await pair();
    await send(requests(400, 5));
    await text(ours); // part exported, part not, when the reset comes
    await send(requests(100, 6));
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await text(ours)).toBe(await text(theirs));
    await send(requests(200, 7));
    // A label set seen again after a reset keeps its old place here, where prom-client lists
    // it in order of its first request since: the same lines, maybe in another order.
    const lines = async (r: Registry) => (await text(r)).split('\n').sort();
    expect(await lines(ours)).toEqual(await lines(theirs));
  });
});
