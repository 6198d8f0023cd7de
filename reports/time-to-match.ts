import type { PartResult } from '../kernel/results.ts';
import { html, type Html } from './html-escape.ts';

// The matching runs' time-to-match table on the report page: p50/p95/p99 per market and
// overall, with the match ratio and how time-to-match was measured (webhooks, or polling with
// its floor), read from the figures `lendcheck load` writes (cli/load/matching-figures.ts).

interface Row {
  run: string;
  market: string;
  p: Record<string, number | string>;
  ratio?: number | string;
}

const TTM = /^(?:(.+): )?time to match (?:(.+) )?(p50|p95|p99) ms$/;
const RATIO = /^(?:(.+): )?match ratio (.+)$/;

export function timeToMatchTable(p: PartResult): Html {
  const rows = new Map<string, Row>();
  const row = (run: string, market: string) => {
    const k = `${run}\n${market}`;
    if (!rows.has(k)) rows.set(k, { run, market, p: {} });
    return rows.get(k)!;
  };
  const notes: string[] = [];
  for (const [k, v] of Object.entries(p.figures)) {
    const t = TTM.exec(k);
    if (t) row(t[1] ?? '', t[2] ?? 'all markets').p[t[3]] = v;
    const r = RATIO.exec(k);
    if (r) row(r[1] ?? '', r[2]).ratio = v;
    const m = /^(?:(.+): )?matchRatio$/.exec(k);
    if (m) row(m[1] ?? '', 'all markets').ratio = v;
    const from = /^(?:(.+): )?(timeToMatchFrom|timeToMatchFloorMs)$/.exec(k);
    if (from) notes.push(`${from[1] ? `${from[1]}: ` : ''}${from[2] === 'timeToMatchFrom' ? `measured from ${v}` : `floor ${v} ms (the poll interval)`}`);
  }
  if (!rows.size) return html``;
  const pct = (v: number | string | undefined) => (v === undefined ? '—' : String(v));
  return html`<h3>Time to match (ms, from the order's acknowledgement)</h3><table class="latency"><thead><tr><th>run</th><th>market</th><th>p50</th><th>p95</th><th>p99</th><th>match ratio</th></tr></thead><tbody>
${[...rows.values()].map((r) => html`<tr><td>${r.run}</td><td>${r.market}</td><td class="num">${pct(r.p.p50)}</td><td class="num">${pct(r.p.p95)}</td><td class="num">${pct(r.p.p99)}</td><td class="num">${r.ratio === undefined ? '—' : `${(Number(r.ratio) * 100).toFixed(2)} %`}</td></tr>`)}
</tbody></table>${notes.length ? html`<p class="muted">${notes.join('; ')}</p>` : ''}`;
}
