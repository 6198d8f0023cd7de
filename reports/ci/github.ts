import { appendFileSync } from 'node:fs';
import type { RunSummary } from '../../kernel/results.ts';
import type { Redactor } from '../redact.ts';
import { formatDuration } from '../format.ts';
import { reproductionText } from '../repro/curl.ts';

// Where GitHub Actions shows results: a markdown job summary appended to $GITHUB_STEP_SUMMARY
// (verdict, steps, each failed check with its reproduction folded in <details>) and one
// `::error` workflow command per failed check, which GitHub turns into an annotation.
// https://docs.github.com/actions/reference/workflow-commands-for-github-actions

/** A workflow command's message: %, CR and LF are escaped (GitHub's escapeData). */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: also ':' and ',' (GitHub's escapeProperty). */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const MARK: Record<string, string> = { passed: '✅ PASS', failed: '❌ FAIL', incomplete: '⚠️ INCOMPLETE', skipped: '⏭️ SKIP' };

/** Text in a table cell or a summary line: no pipe, no newline, no stray HTML. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');

/** GitHub takes at most 1 MiB of summary per step; past this, reproductions stay in the report only. */
export const SUMMARY_BUDGET = 900_000;

export function jobSummary(s: RunSummary, reportPath?: string, withRepro = true): string {
  const out: string[] = [];
  out.push(`## lendcheck: ${MARK[s.verdict]}`, '');
  out.push(`Target \`${s.target}\` · profile \`${s.profile}\` · ${formatDuration(s.durationMs)} · run \`${s.runId}\``, '');
  for (const r of s.verdictReasons ?? []) out.push(`- ${cell(r)}`);
  if (s.verdictReasons?.length) out.push('');
  out.push('| step | result | passed | failed | skipped | duration | note |', '|---|---|---:|---:|---:|---:|---|');
  for (const p of s.parts) {
    const n = (st: string) => p.checks.filter((c) => c.status === st).length;
    out.push(`| ${p.part} | ${MARK[p.status]} | ${n('passed')} | ${n('failed')} | ${n('skipped')} | ${formatDuration(p.durationMs)} | ${cell(p.skipReason ?? '')} |`);
  }
  const failed = s.parts.flatMap((p) => p.checks.filter((c) => c.status === 'failed').map((c) => ({ p, c })));
  if (failed.length) {
    out.push('', `### Failed checks (${failed.length})`, '');
    for (const { p, c } of failed) {
      const req = c.requirements.length ? ` — breaks ${c.requirements.map((r) => `\`${r}\``).join(', ')}` : '';
      const repro = withRepro ? reproductionText(c) : [];
      out.push('<details>', `<summary><b>${cell(`${p.part}/${c.id}`)}</b>${req}: ${cell((c.message ?? c.title).split('\n')[0])}</summary>`, '');
      out.push('```text', c.message ?? c.title, '```');
      if (repro.length) out.push('', '```sh', ...repro.map((l) => l.replace(/```/g, "'''")), '```');
      out.push('', '</details>', '');
    }
  }
  if (!withRepro) out.push('', '_The reproductions did not fit in a job summary: see the report and failures.json._');
  if (reportPath) out.push('', `Report: \`${reportPath}\` (kept as the job's artifact in the example workflows).`);
  const md = out.join('\n') + '\n';
  return withRepro && Buffer.byteLength(md) > SUMMARY_BUDGET ? jobSummary(s, reportPath, false) : md;
}

/** One `::error` line per failed check, titled with the check and its requirement ids. */
export function annotations(s: RunSummary): string[] {
  return s.parts.flatMap((p) =>
    p.checks
      .filter((c) => c.status === 'failed')
      .map((c) => `::error title=${escapeProperty(`lendcheck ${p.part}/${c.id}${c.requirements.length ? ` [${c.requirements.join(', ')}]` : ''}`)}::${escapeData(c.message ?? c.title)}`),
  );
}

/**
 * With GITHUB_ACTIONS set: the summary appended to $GITHUB_STEP_SUMMARY (when GitHub gave
 * one) and the annotations written to `out`; both through the redactor. Returns whether it ran.
 */
export function reportToGithub(s: RunSummary, redactor: Redactor, opts: { env?: NodeJS.ProcessEnv; out?: (line: string) => void; reportPath?: string } = {}): boolean {
  const env = opts.env ?? process.env;
  if (!env.GITHUB_ACTIONS) return false;
  const clean = redactor.value(s);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, redactor.text(jobSummary(clean, opts.reportPath)));
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  for (const a of annotations(clean)) out(redactor.text(a));
  return true;
}
