import type { Comparison, DiffRow } from '../../kernel/results.ts';

// The diff table as text (terminal and comparison.txt): one row per figure that moved or
// that a bound covers, regressions first.

const ARROW: Record<DiffRow['direction'], string> = { better: '↑ better', worse: '↓ worse', same: '= same', changed: '~ changed', new: '+ new', gone: '- gone' };
const n = (x: number | null) => (x === null ? '—' : String(Math.round(x * 100) / 100));

/**
 * The comparison's one verdict and the exit code it goes with: 1 only when a figure crossed a
 * --max-regression bound, or a check that passed in the baseline fails now under bounds; without
 * bounds nothing fails the comparison, and the line says so rather than "no regression" beside
 * rows marked worse.
 */
export function compareVerdict(c: Comparison, bounded: boolean): { exitCode: 0 | 1; text: string } {
  const reg = c.rows.filter((r) => r.regression);
  const worse = c.rows.filter((r) => r.direction === 'worse');
  const significant = worse.filter((r) => r.significance.startsWith('significant')).length;
  const better = c.rows.filter((r) => r.direction === 'better').length;
  const moved = `${worse.length} figure${worse.length === 1 ? '' : 's'} worse${significant ? ` (${significant} significantly)` : ''}, ${better} better`;
  const failures = c.newFailures.length ? `; ${c.newFailures.length} check${c.newFailures.length === 1 ? '' : 's'} that passed in the baseline fail${c.newFailures.length === 1 ? 's' : ''} now` : '';
  if (!c.baselineRunId) return { exitCode: 0, text: 'verdict: nothing compared (no baseline); exit 0' };
  if (reg.length) return { exitCode: 1, text: `verdict: REGRESSION: ${reg.length} figure${reg.length === 1 ? '' : 's'} beyond the bounds (${[...new Set(reg.map((r) => r.regression))].join(', ')})${failures}; exit 1` };
  if (bounded && c.newFailures.length) return { exitCode: 1, text: `verdict: REGRESSION: no figure beyond the bounds, but${failures.slice(1)}; exit 1` };
  if (bounded) return { exitCode: 0, text: `verdict: within the bounds: ${moved}${failures}; exit 0` };
  return { exitCode: 0, text: `verdict: not judged, no bounds given (--max-regression, e.g. p95=10%): ${moved}${failures}; exit 0` };
}

/** opts.verdict false: no verdict line (the gate's regression part gives its own verdict). */
export function diffTable(c: Comparison, opts: { all?: boolean; bounded?: boolean; verdict?: boolean } = {}): string {
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
  for (const f of c.newFailures) lines.push(`new failure: ${f.part} ${f.id} — ${f.title}`);
  if (opts.verdict !== false) lines.push(compareVerdict(c, opts.bounded ?? c.rows.some((r) => r.regression)).text);
  return lines.join('\n') + '\n';
}
