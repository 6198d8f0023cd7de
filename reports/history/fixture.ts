import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LatencyDistribution, PartResult, RunSummary } from '../../kernel/results.ts';
import { fixtureRunSummary } from '../fixture.ts';
import { parseBounds } from './bounds.ts';
import { compareRuns, comparisonPart } from './compare.ts';
import { extractRun } from './extract.ts';
import { History } from './store.ts';

// Made-up runs for the report's "compared with" section (browser test, writer tests):
// six earlier runs and this one, put through the real history, comparison and bounds. In
// the last run lend.create is about 40 % slower and the Growth burst admits 3 fewer, so the
// page shows two regressions. Nothing here is a measurement of any service.

/** Deterministic pseudo-random numbers (a linear congruential generator), so pages are stable. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function distribution(endpoint: string, medianMs: number, rnd: () => number, n = 80): LatencyDistribution {
  const xs = Array.from({ length: n }, () => Math.round(medianMs * Math.exp((rnd() + rnd() + rnd() - 1.5) * 0.6) * 100) / 100).sort((a, b) => a - b);
  const at = (p: number) => xs[Math.min(n - 1, Math.round((p / 100) * (n - 1)))];
  return { endpoint, count: n, p50: at(50), p95: at(95), p99: at(99), samples: xs };
}

// Median latency per endpoint: rates.get for the rate-limit series, the order endpoints for matching.
const RATE_LIMIT_MEDIANS: Record<string, number> = { 'rates.get': 4 };
const MATCHING_MEDIANS: Record<string, number> = { 'lend.create': 12, 'position.get': 5, 'positions.list': 9, 'orderbook.get': 6 };
const BURST: Record<string, number> = { starter: 100, growth: 500, scale: 2000 };
const RATE: Record<string, number> = { starter: 60, growth: 300, scale: 1000 };

/** The fixture's load part as run i would have left it: per-endpoint samples, burst, refill, time to match. */
function loadPart(fixtureLoad: PartResult, i: number, last: boolean): PartResult {
  const rnd = lcg(1000 + i);
  const drift = 1 + 0.03 * Math.sin(i);
  const series = (fixtureLoad.series ?? []).map((s) => {
    const medians = s.name.startsWith('matching') ? MATCHING_MEDIANS : RATE_LIMIT_MEDIANS;
    return { ...s, endpoints: Object.entries(medians).map(([ep, m]) => distribution(ep, m * drift * (last && ep === 'lend.create' ? 1.4 : 1), rnd)) };
  });
  const figures: PartResult['figures'] = { ...fixtureLoad.figures };
  for (const tier of Object.keys(BURST)) {
    figures[`rate-limit (${tier}) smoke: burstAccepted`] = BURST[tier] - (last && tier === 'growth' ? 3 : 0);
    figures[`rate-limit (${tier}) smoke: admittedPerMinute`] = Math.round(RATE[tier] * (1 + 0.01 * Math.cos(i)));
  }
  figures['matching (scale) smoke: time to match p95 ms'] = Math.round(180 + 15 * Math.sin(i * 1.7));
  return { ...fixtureLoad, series, figures };
}

/** The fixture run plus a regression part comparing it with made-up earlier runs. */
export function fixtureComparedRun(runs = 7): RunSummary {
  const dir = mkdtempSync(join(tmpdir(), 'lendcheck-history-fixture-'));
  const h = new History(join(dir, 'history.db'));
  try {
    const base = fixtureRunSummary({ failing: false });
    for (let i = 0; i < runs - 1; i++) {
      const day = String(16 + i).padStart(2, '0');
      const parts = base.parts.map((p) => (p.part === 'load' ? loadPart(p, i, false) : p));
      h.append({ ...base, runId: `202611${day}T020000Z-0${i}ab`, verdict: 'passed', parts }, { kind: 'gate', version: '0.1.0', commit: `c0ffee${i}` });
    }
    const current = fixtureRunSummary();
    const parts = current.parts.map((p) => (p.part === 'load' ? loadPart(p, runs - 1, true) : p));
    const bounds = parseBounds('p95=10%,burst=0');
    const baseline = h.lastPassing({ target: current.target, seq: Infinity })!;
    const c = compareRuns({ runId: current.runId, target: current.target, current: extractRun({ parts }), baseline: { row: baseline, data: h.load(baseline) }, baselineReason: `the last passing run against ${current.target}`, bounds, history: h });
    const regression = comparisonPart(c, bounds, { target: current.target, profile: current.profile, startedAt: current.startedAt, durationMs: 40 });
    return { ...current, verdict: 'failed', parts: [...parts, regression] };
  } finally {
    h.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
