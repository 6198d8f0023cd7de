import type { Redactor } from '../../reports/redact.ts';
import type { Paint } from '../../reports/output/color.ts';
import { reproductionText } from '../../reports/repro/curl.ts';
import type { ReplayOutcome } from './run.ts';

/** One line per check (fixed / still failing / not replayed), a still failing one with its new reproduction. */
export function replayLines(outcomes: ReplayOutcome[], p: Paint, redactor: Redactor): string[] {
  const lines: string[] = [];
  for (const o of outcomes) {
    const f = o.failure;
    const req = f.requirements.length ? ` [${f.requirements.join(', ')}]` : '';
    const mark = o.verdict === 'fixed' ? p.green('fixed') : o.verdict === 'still failing' || o.verdict === 'fails now' ? p.red(o.verdict) : p.yellow(o.verdict);
    lines.push(`${mark}  ${f.part}/${f.id}${req}${o.message ? `: ${o.message.split('\n')[0]}` : ''}`);
    if ((o.verdict === 'still failing' || o.verdict === 'fails now') && o.result) for (const l of reproductionText(o.result)) lines.push(`    ${l}`);
  }
  const n = (v: ReplayOutcome['verdict']) => outcomes.filter((o) => o.verdict === v).length;
  const elsewhere = n('passes now') + n('fails now') ? `, ${n('passes now')} passes now, ${n('fails now')} fails now (not the run's target or keys: not called fixed)` : '';
  lines.push(`replay: ${n('fixed')} fixed, ${n('still failing')} still failing, ${n('not replayed')} not replayed${elsewhere}`);
  return lines.map((l) => redactor.text(l));
}
