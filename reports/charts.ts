import * as echarts from 'echarts';
import type { z } from 'zod';
import type { loadSeries, timelineEvent } from '../contract/results.ts';

// Charts are rendered on the server by echarts into SVG strings, so the report page
// needs no script and no network to show them.

type LoadSeries = z.infer<typeof loadSeries>;
type TimelineEvent = z.infer<typeof timelineEvent>;

const COLORS = { accepted: '#2e7d32', rejected: '#c62828', limit: '#1565c0', expected: '#1565c0', observed: '#ef6c00' };

function render(option: echarts.EChartsOption, width: number, height: number): string {
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
  const series: echarts.SeriesOption[] = [
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

/**
 * Expected against observed attempt times, one row per event. Retry delays span a minute
 * to a day, so the time axis is logarithmic; the first attempt (offset 0) sits at 1 s.
 */
export function timelineChart(events: TimelineEvent[], width = 760, height?: number): string {
  const ids = events.map((e) => e.eventId);
  const h = height ?? Math.max(180, 80 + 40 * ids.length);
  const toSec = (ms: number) => Math.max(ms / 1000, 1);
  const pts = (pick: (e: TimelineEvent) => number[]) => events.flatMap((e) => pick(e).map((ms) => [toSec(ms), e.eventId]));
  return render(
    {
      legend: { bottom: 0, itemGap: 24 },
      grid: { left: 140, right: 24, top: 16, bottom: 64 },
      xAxis: { type: 'log', logBase: 10, min: 1, name: 'seconds after the first attempt (log)', nameLocation: 'middle', nameGap: 24 },
      yAxis: { type: 'category', data: ids, inverse: true },
      series: [
        { name: 'expected', type: 'scatter', data: pts((e) => e.expectedMs), symbol: 'diamond', symbolSize: 14, itemStyle: { color: 'transparent', borderColor: COLORS.expected, borderWidth: 2 } },
        { name: 'observed', type: 'scatter', data: pts((e) => e.observedMs), symbol: 'circle', symbolSize: 8, itemStyle: { color: COLORS.observed } },
      ],
    },
    width,
    h,
  );
}
