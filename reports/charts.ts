import { createRequire } from 'node:module';
import type * as Echarts from 'echarts';
import type { z } from 'zod';
import type { loadSeries, timelineEvent } from '../kernel/results.ts';
import { MissingPeerError, requirePeer } from '../kernel/optional-peer.ts';

// Charts are rendered on the server by echarts into SVG strings, so the report page
// needs no script and no network to show them.

type LoadSeries = z.infer<typeof loadSeries>;
type TimelineEvent = z.infer<typeof timelineEvent>;

const COLORS = { accepted: '#2e7d32', rejected: '#c62828', limit: '#1565c0', expected: '#1565c0', observed: '#ef6c00' };

// echarts' ES module entry is some 700 files, which every process importing the report writers
// paid for at start-up (0.5-1 s quiet, 5-10 s on a loaded machine, more through tsx) whether
// or not it drew a chart. Its own single-file CommonJS bundle (the package's `require` export,
// the same library) is loaded on the first chart instead.
let loaded: typeof Echarts | undefined;
// echarts is an optional peer of the package (kernel/optional-peer.ts): without it a chart is a
// line saying so, and the report is written all the same.
const lib = (): typeof Echarts => (loaded ??= requirePeer('echarts', "the report's charts", () => createRequire(import.meta.url)('echarts') as typeof Echarts));

function render(option: Echarts.EChartsOption, width: number, height: number): string {
  let echarts: typeof Echarts;
  try {
    echarts = lib();
  } catch (e) {
    if (!(e instanceof MissingPeerError)) throw e;
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="24"><text x="0" y="16" font-family="system-ui, sans-serif" font-size="13">chart not drawn: npm i -D echarts</text></svg>`;
  }
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' }, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** The width of one bucket of a series, in seconds (its smallest step; 1 s when unknown). */
export function bucketSeconds(s: LoadSeries): number {
  const ts = [...new Set([...s.accepted, ...s.rejected].map((p) => p.t))].sort((a, b) => a - b);
  let step = Infinity;
  for (let i = 1; i < ts.length; i++) step = Math.min(step, ts[i] - ts[i - 1]);
  return Number.isFinite(step) && step > 0 ? step : 1;
}

/**
 * Accepted against rejected requests per bucket over time, with the tier's limit drawn
 * as a line in the same unit (its per-minute rate scaled to the bucket width).
 */
export function loadChart(s: LoadSeries, width = 760, height = 300): string {
  const bucket = bucketSeconds(s);
  const unit = bucket === 1 ? 'requests per second' : `requests per ${bucket} s`;
  const xs = [...s.accepted, ...s.rejected].map((p) => p.t);
  const xMax = xs.length ? Math.max(...xs) : 1;
  const series: Echarts.SeriesOption[] = [
    { name: 'accepted', type: 'bar', stack: 'req', data: s.accepted.map((p) => [p.t, p.value]), itemStyle: { color: COLORS.accepted }, barMaxWidth: 14 },
    { name: 'rejected (429)', type: 'bar', stack: 'req', data: s.rejected.map((p) => [p.t, p.value]), itemStyle: { color: COLORS.rejected }, barMaxWidth: 14 },
  ];
  if (s.limitPerMinute !== undefined) {
    const perBucket = (s.limitPerMinute * bucket) / 60;
    series.push({
      name: `limit (${s.limitPerMinute}/min)`,
      type: 'line',
      data: [[0, perBucket], [xMax, perBucket]],
      symbol: 'none',
      lineStyle: { color: COLORS.limit, type: 'dashed', width: 2 },
      itemStyle: { color: COLORS.limit },
    });
  }
  return render(
    {
      title: { text: s.name, left: 'center', textStyle: { fontSize: 14 } },
      legend: { bottom: 0 },
      grid: { left: 56, right: 24, top: 40, bottom: 64 },
      xAxis: { type: 'value', name: 'seconds', nameLocation: 'middle', nameGap: 24, min: 0 },
      yAxis: { type: 'value', name: unit, nameTextStyle: { align: 'left' } },
      series,
    },
    width,
    height,
  );
}

/** A short row label: the event type and the tail of its id (ids are long and alike). */
export function eventLabel(e: TimelineEvent): string {
  const tail = e.eventId.length > 10 ? `…${e.eventId.slice(-6)}` : e.eventId;
  return `${e.type} ${tail}`;
}

/**
 * Expected against observed attempt times, one row per event. Retry delays span a minute
 * to a day (or, time-scaled, milliseconds to seconds), so the time axis is logarithmic in
 * a unit fitted to the data; the first attempt (offset 0) sits at one unit.
 */
export function timelineChart(events: TimelineEvent[], width = 760, height?: number): string {
  const labels = events.map(eventLabel);
  const h = height ?? Math.max(180, 80 + 34 * labels.length);
  const maxMs = Math.max(1, ...events.flatMap((e) => [...e.expectedMs, ...e.observedMs]));
  const unit = maxMs < 60_000 ? { name: 'ms', div: 1 } : { name: 'seconds', div: 1000 };
  const at = (ms: number) => Math.max(ms / unit.div, 1);
  const pts = (pick: (e: TimelineEvent) => number[], keep: (e: TimelineEvent) => boolean = () => true) =>
    events.flatMap((e, i) => (keep(e) ? pick(e).map((ms) => [at(ms), labels[i]]) : []));
  return render(
    {
      legend: { bottom: 0, itemGap: 24 },
      grid: { left: 16, right: 32, top: 16, bottom: 64, containLabel: true },
      xAxis: { type: 'log', logBase: 10, min: 1, name: `${unit.name} after the first attempt (log; first attempt at 1)`, nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'category', data: labels, inverse: true, axisLabel: { fontFamily: 'ui-monospace, monospace', fontSize: 11 } },
      series: [
        { name: 'expected', type: 'scatter', data: pts((e) => e.expectedMs), symbol: 'diamond', symbolSize: 14, itemStyle: { color: 'transparent', borderColor: COLORS.expected, borderWidth: 2 } },
        { name: 'observed', type: 'scatter', data: pts((e) => e.observedMs, (e) => e.verdict === 'passed'), symbol: 'circle', symbolSize: 8, itemStyle: { color: COLORS.observed } },
        { name: 'observed (event failed)', type: 'scatter', data: pts((e) => e.observedMs, (e) => e.verdict === 'failed'), symbol: 'circle', symbolSize: 8, itemStyle: { color: COLORS.rejected } },
      ],
    },
    width,
    h,
  );
}

/**
 * A sparkline: one figure over the last runs, oldest on the left, the newest point marked
 * (red when the comparison called it a regression). No axes: the table beside it gives the
 * numbers. A run that lacked the figure leaves a gap.
 */
export function sparkline(values: Array<number | null>, opts: { regression?: boolean; width?: number; height?: number } = {}): string {
  const last = values.length - 1;
  const color = opts.regression ? COLORS.rejected : COLORS.limit;
  return render(
    {
      grid: { left: 4, right: 8, top: 6, bottom: 6 },
      xAxis: { type: 'category', show: false, data: values.map((_, i) => String(i)), boundaryGap: false },
      yAxis: { type: 'value', show: false, scale: true },
      series: [
        {
          type: 'line',
          data: values.map((v, i) => (i === last && v !== null ? { value: v, symbol: 'circle', symbolSize: 6, itemStyle: { color } } : v)),
          symbol: 'none',
          connectNulls: false,
          lineStyle: { color: '#546e7a', width: 1.5 },
          areaStyle: { color: 'rgba(84,110,122,0.12)' },
        },
      ],
    },
    opts.width ?? 180,
    opts.height ?? 40,
  );
}
