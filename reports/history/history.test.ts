import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartResult, RunSummary } from '../../kernel/results.ts';
import { parseBounds, worsening } from './bounds.ts';
import { compareRuns, comparisonPart } from './compare.ts';
import { History, targetKey } from './store.ts';
import { diffTable } from './table.ts';

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spread = (base: number, n = 40) => Array.from({ length: n }, (_, i) => base + (i % 10) * 0.5);

function run(id: string, o: { lendMs: number; burst: number; checkStatus?: 'passed' | 'failed'; verdict?: 'passed' | 'failed'; port?: number }): RunSummary {
  const load: PartResult = {
    part: 'load', name: 'smoke rate limit per tier + matching smoke', status: 'passed', startedAt: '2026-11-23T00:00:00.000Z', durationMs: 1000, checks: [],
    figures: { 'rate-limit (starter) smoke: burstAccepted': o.burst, 'rate-limit (starter) smoke: admittedPerMinute': 60, 'rate-limit (starter) smoke: k6Version': 'v2.2.0' },
    series: [{
      name: 'mixed scale', tier: 'scale', accepted: [{ t: 0, value: 10 }, { t: 1, value: 12 }], rejected: [{ t: 0, value: 0 }], latencyMs: {},
      endpoints: [
        { endpoint: 'lend.create', count: 40, p50: o.lendMs + 2, p95: o.lendMs + 4.5, p99: o.lendMs + 4.5, samples: spread(o.lendMs) },
        { endpoint: 'rates.get', count: 40, p50: 7, p95: 9.5, p99: 9.5, samples: spread(5) },
      ],
    }],
  };
  const conf: PartResult = {
    part: 'conformance', name: 'conformance suite', status: o.checkStatus ?? 'passed', startedAt: '2026-11-23T00:00:00.000Z', durationMs: 10, figures: {},
    checks: [{ id: 'auth.missing', title: 'a request without a key gets 401', requirements: [], status: o.checkStatus ?? 'passed', durationMs: 1, notes: [] }],
  };
  return { runId: id, verdict: o.verdict ?? 'passed', target: `embedded sandbox (http://127.0.0.1:${o.port ?? 4000}/v1)`, profile: 'lendcheck-v1', startedAt: '2026-11-23T00:00:00.000Z', durationMs: 2000, parts: [conf, load] };
}

describe('the run history', () => {
  const h = new History(join(dir, 'history.db'));
  afterAll(() => h.close());
  const key = { kind: 'gate', version: '0.1.0', commit: 'abc123' };

  it('keys the embedded sandbox without its port, and finds the last passing run against it', () => {
    expect(targetKey('embedded sandbox (http://127.0.0.1:41234/v1)')).toBe('embedded sandbox');
    expect(targetKey('https://sandbox.example.com/v1')).toBe('https://sandbox.example.com/v1');
    h.append(run('a', { lendMs: 10, burst: 100, port: 4001 }), key);
    h.append(run('b', { lendMs: 10.2, burst: 100, port: 4002 }), key);
    h.append(run('c', { lendMs: 30, burst: 98, checkStatus: 'failed', verdict: 'failed', port: 4003 }), key);
    const c = h.find('c')!;
    expect(c).toMatchObject({ target: 'embedded sandbox', version: '0.1.0', commit: 'abc123', verdict: 'failed' });
    expect(h.lastPassing(c)?.runId).toBe('b');
    const stored = h.load(c);
    expect(stored.samples.find((s) => s.endpoint === 'lend.create')?.samples).toHaveLength(40);
    expect(stored.figures).toContainEqual({ scope: 'rate-limit (starter) smoke', endpoint: '', metric: 'burstAccepted', value: 98 });
    expect(stored.figures).toContainEqual({ scope: 'mixed scale', endpoint: '', metric: 'accepted', value: 22 });
    expect(stored.figures).toContainEqual({ scope: 'rate-limit (starter) smoke', endpoint: '', metric: 'burstNet', value: 98 });
  });

  it('finds no regression between two like runs, and names the slowed endpoint, the burst drop and the new failure', () => {
    const bounds = parseBounds('p95=10%,burst=0');
    const like = compareRuns({ runId: 'b', target: 'embedded sandbox', current: h.load(h.find('b')!), baseline: { row: h.find('a')!, data: h.load(h.find('a')!) }, baselineReason: 'test', bounds });
    expect(like.rows.filter((r) => r.regression)).toEqual([]);
    expect(like.rows.find((r) => r.endpoint === 'lend.create' && r.metric === 'p95')?.significance).toMatch(/^not significant/);

    const worse = compareRuns({ runId: 'c', target: 'embedded sandbox', current: h.load(h.find('c')!), baseline: { row: h.find('b')!, data: h.load(h.find('b')!) }, baselineReason: 'test', bounds, history: h });
    const reg = worse.rows.filter((r) => r.regression);
    expect(reg.map((r) => [r.endpoint ?? r.scope, r.metric, r.regression])).toEqual([
      ['lend.create', 'p95', 'p95=10%'],
      ['rate-limit (starter) smoke', 'burstNet', 'burst=0'],
    ]);
    expect(reg[0]).toMatchObject({ baseline: 14.7, current: 34.5, direction: 'worse' });
    expect(reg[0].pValue).toBeLessThan(0.001);
    expect(reg[1]).toMatchObject({ delta: -2, direction: 'worse', significance: 'exact: a real change' });
    expect(worse.rows.find((r) => r.endpoint === 'rates.get' && r.metric === 'p95')).toMatchObject({ direction: 'same', pValue: 1 });
    expect(worse.newFailures).toEqual([{ id: 'auth.missing', title: 'a request without a key gets 401', part: 'conformance' }]);
    expect(worse.trends.find((t) => t.endpoint === 'lend.create' && t.metric === 'p95')?.points.map((p) => p.value)).toEqual([14.5, 14.7, 34.5]);

    const part = comparisonPart(worse, bounds, { target: 'embedded sandbox', profile: 'lendcheck-v1', startedAt: '2026-11-23T00:00:00.000Z', durationMs: 1 });
    expect(part.status).toBe('failed');
    expect(part.checks.map((c) => [c.id, c.status])).toEqual([['regression:p95=10%', 'failed'], ['regression:burst=0', 'failed'], ['regression:new-failures', 'failed']]);
    expect(part.checks[0].message).toBe('mixed scale lend.create p95: expected at most p95=10% worse than 14.7 / received 34.5 (+134.7%; significant: slower (Mann-Whitney p=' + reg[0].pValue + ', n=40/40))');
    expect(diffTable(worse)).toMatch(/lend\.create\s+p95\s+14\.7\s+34\.5\s+\+134\.7%\s+↓ worse\s+significant: slower .*REGRESSION \(p95=10%\)/);
  });

  it('skips the regression part, saying why, when there is no baseline', () => {
    const c = compareRuns({ runId: 'x', target: 't', current: { figures: [], samples: [], checks: [] }, baselineReason: 'no earlier passing run against t', bounds: [] });
    const part = comparisonPart(c, [], { target: 't', profile: 'p', startedAt: '2026-11-23T00:00:00.000Z', durationMs: 0 });
    expect(part).toMatchObject({ status: 'skipped', skipReason: 'skipped: no earlier passing run against t' });
  });

  it('refuses bounds it cannot read', () => {
    expect(() => parseBounds('p95=ten')).toThrow(/expected name=N%/);
    expect(() => parseBounds('p42=1%')).toThrow(/unknown figure "p42"/);
    expect(parseBounds('p95=10%,burst=0').map((b) => [b.name, b.relative, b.limit])).toEqual([['p95', true, 10], ['burst', false, 0]]);
    const [ttm] = parseBounds('ttm=20%');
    expect(['time to match p95 ms', 'time to match p99 ms', 'order accept p95 ms'].map(ttm.metrics)).toEqual([true, false, false]);
    expect(worsening(ttm, 'time to match p95 ms', 200, 260)).toBe(30);
    expect(worsening(parseBounds('refill=5%')[0], 'admittedPerMinute', 300, 330)).toBe(0); // more admitted is not worse
  });
});

describe('the report page with a comparison', () => {
  it('renders the compared-with section: a sparkline per trended figure and the regressions first in the diff', async () => {
    const { renderReportPage } = await import('../html-page.ts');
    const { fixtureComparedRun } = await import('./fixture.ts');
    const page = renderReportPage(fixtureComparedRun(5));
    const section = page.slice(page.indexOf('<section class="part part-regression"'));
    expect(section).toContain('<h2>Compared with: against 20261119T020000Z-03ab');
    const trendRows = (section.match(/<td class="sparkline">/g) ?? []).length;
    expect(trendRows).toBeGreaterThanOrEqual(15);
    expect((section.match(/<td class="sparkline"><svg/g) ?? []).length).toBe(trendRows);
    const diff = section.slice(section.indexOf('<table class="diff">'), section.indexOf('</table>', section.indexOf('<table class="diff">')));
    expect(diff.indexOf('lend.create')).toBeLessThan(diff.indexOf('burstNet'));
    expect((diff.match(/<tr class="row-failed">/g) ?? []).length).toBe(2);
    // Self-contained: no script, and no address but the SVG namespaces and the fixture target.
    expect(page).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1|www\.w3\.org\/)/);
  });
});
