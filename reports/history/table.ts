import type { Comparison, DiffRow } from '../../kernel/results.ts';

// The diff table as text (terminal and comparison.txt): one row per figure that moved or
// that a bound covers, regressions first.

const ARROW: Record<DiffRow['direction'], string> = { better: '↑ better', worse: '↓ worse', same: '= same', changed: '~ changed', new: '+ new', gone: '- gone' };
const n = (x: number | null) => (x === null ? '—' : String(Math.round(x * 100) / 100));

export function diffTable(c: Comparison, opts: { all?: boolean } = {}): string {
  const lines: string[] = [];
  lines.push(`run ${c.runId} compared with ${c.baselineRunId ?? '(no baseline)'}: ${c.baselineReason}`);
  if (!c.baselineRunId) return lines.join('\n') + '\n';
  const shown = c.rows
    .filter((r) => opts.all || r.regression || r.direction !== 'same')
    .sort((a, b) => Number(!!b.regression) - Number(!!a.regression) || Number(b.direction === 'worse') - Number(a.direction === 'worse'));
  const table = [
    ['scope', 'endpoint', 'figure', 'baseline', 'current', 'change', 'direction', 'significance', 'regression'],
    ...shown.map((r) => [r.scope, r.endpoint ?? '', r.metric, n(r.baseline), n(r.current), r.deltaPct === null ? n(r.delta) : `${r.deltaPct > 0 ? '+' : ''}${r.deltaPct}%`, ARROW[r.direction], r.significance, r.regression ? `REGRESSION (${r.regression})` : '']),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table) lines.push(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
  const same = c.rows.length - shown.length;
  if (same) lines.push(`(${same} figure${same === 1 ? '' : 's'} unchanged, not shown)`);
  const reg = c.rows.filter((r) => r.regression);
  lines.push(reg.length ? `${reg.length} regression${reg.length === 1 ? '' : 's'} beyond the bounds` : 'no regression beyond the bounds');
  for (const f of c.newFailures) lines.push(`new failure: ${f.part} ${f.id} — ${f.title}`);
  return lines.join('\n') + '\n';
}
