import type { z } from 'zod';
import type { RunSummary, PartResult, CheckResult, Exchange, timelineEvent } from '../kernel/results.ts';
import { REQUIREMENTS } from '../contract/requirements.ts';
import { html, raw, type Html } from './html-escape.ts';
import { formatDuration } from './format.ts';
import { loadChart, timelineChart } from './charts.ts';
import { comparedSection } from './compared.ts';
import { timeToMatchTable } from './time-to-match.ts';
import { reproductionText } from './repro/curl.ts';
import { adviceList, adviceSection } from './advisories-html.ts';

// One self-contained page: inline CSS, inline SVG, no script, no external resource.

const REQ_TEXT = new Map(REQUIREMENTS.map((r) => [r.id, r]));

const CSS = `
:root{--ok:#2e7d32;--bad:#c62828;--skip:#757575;--line:#ddd;--bg:#fafafa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#222;background:#fff}
header{padding:20px 32px;border-bottom:1px solid var(--line);background:var(--bg)}
main{padding:8px 32px 48px;max-width:1200px}
h1{margin:0 0 8px;font-size:22px}
h2{margin:32px 0 8px;font-size:19px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{margin:20px 0 6px;font-size:15px}
.verdict{display:inline-block;padding:4px 14px;border-radius:4px;color:#fff;font-weight:700;font-size:18px;letter-spacing:.05em}
.verdict.passed{background:var(--ok);color:#fff}.verdict.failed{background:var(--bad);color:#fff}.verdict.incomplete{background:#b7791f;color:#fff}
tr.row-failed{background:#fff5f5}tr.row-skipped,tr.row-uncovered{background:#f7f7f7}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:12px 0 0}
dl.meta dt{color:#555}dl.meta dd{margin:0;font-family:ui-monospace,monospace}
table{border-collapse:collapse;margin:8px 0;width:100%}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--bg);font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.passed{color:var(--ok)}.failed{color:var(--bad)}.skipped,.uncovered{color:var(--skip)}
span.st{font-weight:700;text-transform:uppercase;font-size:12px}
pre{background:#f4f4f4;border:1px solid var(--line);padding:8px;overflow:auto;max-height:320px;font-size:12px;white-space:pre-wrap;word-break:break-all}
.chart{margin:8px 0;border:1px solid var(--line);display:inline-block}
td.sparkline{padding:0 4px;line-height:0}td.sparkline svg{display:block}
.muted{color:#666}
details>summary{cursor:pointer}
pre.repro{max-height:480px;user-select:all;-webkit-user-select:all;background:#1e1e1e;color:#eee}
ul.breaks{margin:0 0 6px}p.breaks{margin:4px 0 0;font-weight:600}
p.advice{margin:4px 0 0;font-weight:600;color:#8a6d00}ul.advice{margin:0 0 6px}
`;

const st = (s: string): Html => html`<span class="st ${s}">${s}</span>`;

export function renderReportPage(run: RunSummary): string {
  const counts = (p: PartResult) => {
    const c = { passed: 0, failed: 0, skipped: 0 };
    for (const k of p.checks) c[k.status]++;
    return c;
  };
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>lendcheck ${run.verdict} — ${run.runId}</title>
<style>${raw(CSS)}</style></head>
<body>
<header>
<h1>lendcheck report</h1>
<span class="verdict ${run.verdict}" id="verdict">${run.verdict.toUpperCase()}</span>
${run.verdictReasons?.length ? html`<ul id="verdict-reasons">${run.verdictReasons.map((r) => html`<li>${r}</li>`)}</ul>` : ''}
<dl class="meta">
<dt>target</dt><dd id="target">${run.target}</dd>
<dt>profile</dt><dd id="profile">${run.profile}</dd>
<dt>duration</dt><dd id="duration">${formatDuration(run.durationMs)}</dd>
<dt>started</dt><dd>${run.startedAt}</dd>
<dt>run</dt><dd>${run.runId}</dd>
</dl>
</header>
<main>
<h2>Parts</h2>
<table id="parts"><thead><tr><th>part</th><th>name</th><th>result</th><th>checks passed / failed / skipped</th><th>duration</th><th>note</th></tr></thead><tbody>
${run.parts.map((p) => {
  const c = counts(p);
  return html`<tr><td><a href="#part-${p.part}-${slug(p.name)}">${p.part}</a></td><td>${p.name}</td><td>${st(p.status)}</td><td class="num">${c.passed} / ${c.failed} / ${c.skipped}</td><td class="num">${formatDuration(p.durationMs)}</td><td>${p.skipReason ?? ''}</td></tr>`;
})}
</tbody></table>
${run.parts.map((p) => partSection(p, run.parts))}
</main></body></html>
`;
  return body.value;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

const TITLES: Record<PartResult['part'], string> = {
  contract: 'Contract',
  conformance: 'Conformance',
  load: 'Load',
  chaos: 'Chaos: retry schedule',
  certify: 'Certification of the receiver',
  regression: 'Compared with',
  schemathesis: 'Schemathesis against the OpenAPI document',
};

function partSection(p: PartResult, all: PartResult[] = [p]): Html {
  const inner = p.status === 'skipped' && p.checks.length === 0
    ? html`<p class="skipped">Skipped: ${p.skipReason ?? 'no reason given'}</p>`
    : html`${p.skipReason ? html`<p class="${p.status === 'failed' ? 'failed' : 'skipped'}">${p.skipReason}</p>` : ''}${
        p.part === 'conformance' ? conformance(p, all.filter((o) => o !== p)) : p.part === 'load' ? load(p) : p.part === 'chaos' ? chaos(p) : p.part === 'regression' ? html`${comparedSection(p)}${checksTable(p.checks, 'Checks')}` : checksTable(p.checks, 'Checks')
      }${figures(p)}`;
  return html`<section class="part part-${p.part}" id="part-${p.part}-${slug(p.name)}">
<h2>${TITLES[p.part]}: ${p.name} ${st(p.status)}</h2>
<p class="muted">${p.target ? html`target ${p.target} · ` : ''}started ${p.startedAt} · ${formatDuration(p.durationMs)}</p>
${inner}
</section>`;
}

/**
 * Checks of the run's other parts (certify's receiver checks above all) that cite a requirement
 * conformance does not: the coverage row links them, so a receiver rule never reads "uncovered"
 * while the certify part further down checks it.
 */
function elsewhere(requirement: string, others: PartResult[]): Array<{ part: PartResult; check: CheckResult }> {
  return others.flatMap((part) => part.checks.filter((c) => c.requirements.includes(requirement)).map((check) => ({ part, check })));
}

function conformance(p: PartResult, others: PartResult[] = []): Html {
  const coverage = p.coverage ?? deriveCoverage(p.checks);
  const failed = p.checks.filter((c) => c.status === 'failed');
  const skipped = p.checks.filter((c) => c.status === 'skipped');
  const byResult = (r: string) => coverage.filter((c) => c.result === r).length;
  return html`<h3>Spec coverage by requirement</h3>
<p>${coverage.length} requirements: <span class="passed">${byResult('passed')} passed</span>, <span class="failed">${byResult('failed')} failed</span>, <span class="skipped">${byResult('skipped')} skipped</span>, <span class="uncovered">${byResult('uncovered')} uncovered</span>.</p>
<table class="coverage"><thead><tr><th>requirement</th><th>§</th><th>text</th><th>checks</th><th>result</th></tr></thead><tbody>
${coverage.map((row) => {
  const req = REQ_TEXT.get(row.requirement);
  const there = row.result === 'uncovered' ? elsewhere(row.requirement, others) : [];
  const cell = there.length
    ? html`${there.map(({ part, check }, i) => html`${i ? ', ' : ''}<a href="#part-${part.part}-${slug(part.name)}">${part.part}</a> <code>${check.id}</code> ${st(check.status)}`)}`
    : html`${row.checks.map((c, i) => html`${i ? ', ' : ''}<code>${c}</code>`)}`;
  const result = there.length ? html`<span class="muted">not a conformance rule: see ${there[0]!.part.part}</span>` : st(row.result);
  return html`<tr class="row-${row.result}"><td><code>${row.requirement}</code></td><td>${req?.section ?? ''}</td><td>${req?.text ?? ''}</td><td>${cell}</td><td>${result}</td></tr>`;
})}
</tbody></table>
<h3>Failures (${failed.length})</h3>
${failed.length ? failed.map(failure) : html`<p class="passed">No check failed.</p>`}
${adviceSection(p.checks)}
${skipped.length ? html`<h3>Skipped checks (${skipped.length})</h3>${checksTable(skipped, null)}` : ''}
<details><summary>All checks (${p.checks.length})</summary>${checksTable(p.checks, null)}</details>`;
}

/** Coverage from the checks' cited requirements, when a part did not compute it. */
export function deriveCoverage(checks: CheckResult[]): NonNullable<PartResult['coverage']> {
  const rows = new Map<string, { checks: string[]; statuses: string[] }>();
  for (const c of checks) {
    for (const r of c.requirements) {
      const row = rows.get(r) ?? { checks: [], statuses: [] };
      row.checks.push(c.id);
      row.statuses.push(c.status);
      rows.set(r, row);
    }
  }
  return [...rows].map(([requirement, r]) => ({
    requirement,
    checks: r.checks,
    result: r.statuses.includes('failed') ? 'failed' : r.statuses.includes('passed') ? 'passed' : 'skipped',
  }));
}

function failure(c: CheckResult): Html {
  return html`<div class="failure" id="failure-${slug(c.id)}"><h3 class="failed">✗ ${c.title} <code>${c.id}</code></h3>
${breaks(c)}<p class="message">${c.message ?? ''}</p>
${reproBlock(c)}
${c.exchange ? html`<details><summary>The exchange that broke the rule</summary>${exchangeBlock(c.exchange)}</details>` : html`<p class="muted">No exchange recorded.</p>`}
${c.internalError ? html`<details class="internal"><summary>lendcheck internal error (a bug in lendcheck, not a verdict on the target)</summary><pre>${c.internalError}</pre></details>` : ''}</div>`;
}

/** Which requirements a failure breaks, each with its text from the spec. */
function breaks(c: CheckResult): Html {
  if (!c.requirements.length) return html``;
  return html`<p class="breaks">Breaks:</p><ul class="breaks">${c.requirements.map((r) => html`<li><code>${r}</code>${REQ_TEXT.get(r) ? html` (§${REQ_TEXT.get(r)!.section}) ${REQ_TEXT.get(r)!.text}` : ''}</li>`)}</ul>`;
}

/**
 * The reproduction as selectable text: open by default, in a <pre> a reader selects and
 * copies whole (user-select: all: one click selects the block, then Ctrl+C); the page stays script-free,
 * so there is no copy button.
 */
function reproBlock(c: CheckResult): Html {
  const lines = reproductionText(c);
  if (!lines.length) return html``;
  return html`<details class="repro" open><summary>Reproduce</summary><pre class="repro" tabindex="0">${lines.join('\n')}</pre></details>`;
}

function headerLines(h: Record<string, string>): string {
  return Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n');
}

/** Bodies beyond this are cut in the page (summary.json keeps what the part recorded). */
export const BODY_SHOWN = 4096;

function clip(body: string | undefined): string {
  if (!body) return '';
  return body.length > BODY_SHOWN ? `\n${body.slice(0, BODY_SHOWN)}… (${body.length - BODY_SHOWN} more characters)` : `\n${body}`;
}

function exchangeBlock(x: Exchange): Html {
  const req = [`${x.method} ${x.url}`, headerLines(x.requestHeaders), clip(x.requestBody)].filter(Boolean).join('\n');
  const res = x.error
    ? `no response: ${x.error}`
    : [`HTTP ${x.status ?? '—'}  (${formatDuration(x.durationMs)})`, headerLines(x.responseHeaders), clip(x.responseBody)].filter(Boolean).join('\n');
  return html`<div class="exchange"><b>request</b><pre>${req}</pre><b>response</b><pre>${res}</pre></div>`;
}

function checksTable(checks: CheckResult[], title: string | null): Html {
  if (!checks.length) return title ? html`<h3>${title}</h3><p class="muted">No checks recorded.</p>` : html``;
  return html`${title ? html`<h3>${title}</h3>` : ''}<table class="checks"><thead><tr><th>check</th><th>requirements</th><th>result</th><th>detail</th></tr></thead><tbody>
${checks.map((c) => html`<tr class="row-${c.status}"><td>${c.title}<br><code class="muted">${c.id}</code></td><td>${c.requirements.join(', ')}</td><td>${st(c.status)}</td><td>${c.message ?? ''}${c.notes.length ? html`<ul>${c.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}${adviceList(c)}${c.status === 'failed' ? reproBlock(c) : ''}${c.status === 'failed' && c.exchange ? exchangeBlock(c.exchange) : ''}</td></tr>`)}
</tbody></table>`;
}

function load(p: PartResult): Html {
  const series = p.series ?? [];
  const pct = [...new Set(series.flatMap((s) => Object.keys(s.latencyMs)))].sort(pctOrder);
  return html`${series.length ? '' : html`<p class="muted">No time series recorded.</p>`}
${series.map((s) => html`<h3>${s.tier ? html`Tier ${s.tier}: ` : ''}${s.name}</h3><div class="chart load-chart">${raw(loadChart(s))}</div>`)}
${series.some((s) => s.limitPerMinute !== undefined) ? html`<p class="muted">The dashed line is the tier's sustained rate (its per-minute limit in the chart's bucket); a full bucket may admit up to the tier's burst above it.</p>` : ''}
${series.length && pct.length ? html`<h3>Latency percentiles (ms)</h3><table class="latency"><thead><tr><th>run</th>${pct.map((k) => html`<th>${k}</th>`)}</tr></thead><tbody>
${series.map((s) => html`<tr><td>${s.name}</td>${pct.map((k) => html`<td class="num">${s.latencyMs[k] === undefined ? '—' : s.latencyMs[k].toFixed(1)}</td>`)}</tr>`)}
</tbody></table>` : ''}
${timeToMatchTable(p)}
${checksTable(p.checks, 'Checks')}`;
}

// p50 < p90 < p95 < p99 < max, others alphabetically after.
function pctOrder(a: string, b: string): number {
  const rank = (k: string) => (k === 'min' ? -1 : k === 'avg' || k === 'mean' ? 200 : k === 'max' ? 300 : /^p\(?(\d+(?:\.\d+)?)\)?$/.test(k) ? Number(/(\d+(?:\.\d+)?)/.exec(k)![1]) : 400);
  return rank(a) - rank(b) || a.localeCompare(b);
}

type TimelineEvent = z.infer<typeof timelineEvent>;

function chaos(p: PartResult): Html {
  const tl = p.timeline ?? [];
  const scale = Number(p.figures.timeScale);
  return html`${tl.length ? html`<h3>Expected against observed attempt times</h3><div class="chart timeline-chart">${raw(timelineChart(tl))}</div>
${scale > 1 ? html`<p class="muted">Times are as observed, on a sender clock running ${scale}× faster than real time: one real millisecond is ${scale / 1000} business seconds.</p>` : ''}
<table class="timeline"><thead><tr><th>event</th><th>type</th><th>attempt</th><th>expected</th><th>observed</th><th>difference</th></tr></thead><tbody>
${tl.map(timelineRows)}
</tbody></table>` : html`<p class="muted">No attempt timeline recorded.</p>`}
${checksTable(p.checks, 'Checks')}`;
}

function timelineRows(e: TimelineEvent): Html {
  const n = Math.max(e.expectedMs.length, e.observedMs.length);
  const rows: Html[] = [];
  for (let i = 0; i < n; i++) {
    const x = e.expectedMs[i];
    const o = e.observedMs[i];
    rows.push(html`<tr class="row-${e.verdict}">${i === 0 ? html`<td rowspan="${n}"><code>${e.eventId}</code><br>${st(e.verdict)}${e.message ? html`<br>${e.message}` : ''}</td><td rowspan="${n}">${e.type}</td>` : ''}<td class="num">${i === 0 ? 'first' : `retry ${i}`}</td><td class="num">${x === undefined ? '—' : formatDuration(x)}</td><td class="num">${o === undefined ? 'missing' : formatDuration(o)}</td><td class="num">${x !== undefined && o !== undefined ? formatDuration(o - x) : '—'}</td></tr>`);
  }
  return html`${rows}`;
}

function figures(p: PartResult): Html {
  const entries = Object.entries(p.figures);
  if (!entries.length) return html``;
  return html`<h3>Figures</h3><table class="figures"><tbody>${entries.map(([k, v]) => html`<tr><th>${k}</th><td class="num">${v}</td></tr>`)}</tbody></table>`;
}
