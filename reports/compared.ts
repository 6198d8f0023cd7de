import type { Comparison, DiffRow, PartResult } from '../kernel/results.ts';
import { html, raw, type Html } from './html-escape.ts';
import { sparkline } from './charts.ts';

// The report's "compared with" section: this run against a baseline from the run history
// (reports/history/), with sparklines of the last runs per tier and endpoint and the diff table.

const ARROW: Record<DiffRow['direction'], string> = { better: '↑ better', worse: '↓ worse', same: '= same', changed: '~ changed', new: '+ new', gone: '− gone' };
const num = (x: number | null | undefined) => (x === null || x === undefined ? '—' : String(Math.round(x * 100) / 100));
const key = (r: { scope: string; endpoint?: string; metric: string }) => `${r.scope}|${r.endpoint ?? ''}|${r.metric}`;
const change = (r: DiffRow) => (r.deltaPct !== null ? `${r.deltaPct > 0 ? '+' : ''}${r.deltaPct}%` : r.delta !== null ? `${r.delta > 0 ? '+' : ''}${num(r.delta)}` : '—');

function trends(c: Comparison): Html {
  if (!c.trends.length) return html`<p class="muted">No earlier runs against this target to draw trends from.</p>`;
  const rows = new Map(c.rows.map((r) => [key(r), r]));
  const runs = Math.max(...c.trends.map((t) => t.points.length));
  const sorted = [...c.trends].sort((a, b) => a.scope.localeCompare(b.scope) || (a.endpoint ?? '').localeCompare(b.endpoint ?? '') || a.metric.localeCompare(b.metric));
  return html`<h3>Trends over the last ${runs} run${runs === 1 ? '' : 's'} against this target</h3>
<table class="trends"><thead><tr><th>tier / series</th><th>endpoint</th><th>figure</th><th>trend (oldest → this run)</th><th>this run</th><th>vs baseline</th></tr></thead><tbody>
${sorted.map((t) => {
  const r = rows.get(key(t));
  const values = t.points.map((p) => p.value);
  return html`<tr class="${r?.regression ? 'row-failed' : ''}"><td>${t.scope}</td><td>${t.endpoint ? html`<code>${t.endpoint}</code>` : ''}</td><td>${t.metric}</td><td class="sparkline">${raw(sparkline(values, { regression: !!r?.regression }))}</td><td class="num">${num(values[values.length - 1])}</td><td class="num">${r ? change(r) : '—'}</td></tr>`;
})}
</tbody></table>`;
}

function diff(c: Comparison): Html {
  const shown = c.rows
    .filter((r) => r.regression || r.direction !== 'same')
    .sort((a, b) => Number(!!b.regression) - Number(!!a.regression) || Number(b.direction === 'worse') - Number(a.direction === 'worse'));
  const same = c.rows.length - shown.length;
  return html`<h3>Diff against ${c.baselineRunId}</h3>
<table class="diff"><thead><tr><th>scope</th><th>endpoint</th><th>figure</th><th>baseline</th><th>this run</th><th>change</th><th>direction</th><th>significance</th><th>bound</th></tr></thead><tbody>
${shown.map((r) => html`<tr class="${r.regression ? 'row-failed' : ''}"><td>${r.scope}</td><td>${r.endpoint ? html`<code>${r.endpoint}</code>` : ''}</td><td>${r.metric}</td><td class="num">${num(r.baseline)}</td><td class="num">${num(r.current)}</td><td class="num">${change(r)}</td><td class="${r.direction === 'worse' ? 'failed' : r.direction === 'better' ? 'passed' : ''}">${ARROW[r.direction]}</td><td>${r.significance}</td><td>${r.regression ? html`<span class="st failed">regression</span> ${r.regression}` : ''}</td></tr>`)}
</tbody></table>
${same ? html`<p class="muted">${same} figure${same === 1 ? '' : 's'} unchanged, not listed.</p>` : ''}`;
}

export function comparedSection(p: PartResult): Html {
  const c = p.comparison;
  if (!c) return html`<p class="muted">No comparison recorded.</p>`;
  return html`<p id="baseline">${c.baselineRunId ? html`Baseline <code>${c.baselineRunId}</code>: ${c.baselineReason}.` : html`No baseline: ${c.baselineReason}.`}</p>
${c.newFailures.length ? html`<h3 class="failed">New failures (${c.newFailures.length}): passed in the baseline, fail now</h3><ul class="new-failures">${c.newFailures.map((f) => html`<li><code>${f.part} ${f.id}</code> ${f.title}</li>`)}</ul>` : ''}
${trends(c)}
${c.baselineRunId ? diff(c) : ''}`;
}
