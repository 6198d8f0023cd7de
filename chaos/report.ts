import type * as results from '../kernel/results.ts';
import { writePartFiles } from '../reports/writers.ts';

type PartResult = results.PartResult;

/**
 * Writes <dir>/<base>.json (the shared results format) and <dir>/<base>.junit.xml through the
 * one redactor and the one JUnit writer (reports/writers.ts); `secrets` are the run's own
 * (the webhook secret, keys) masked even where they carry no known prefix.
 */
export function writeReports(r: PartResult, dir: string, base: string, secrets: Iterable<string> = []): { json: string; junit: string } {
  return writePartFiles(r, dir, { json: `${base}.json`, junit: `${base}.junit.xml` }, secrets);
}

/** Exit code of a part's verdict: 0 passed, 3 incomplete (nothing failed, but not everything was observed), 1 otherwise. */
export function exitCodeFor(status: PartResult['status']): number {
  return status === 'passed' ? 0 : status === 'incomplete' ? 3 : 1;
}

/** A console summary: verdict, failed checks with their messages, figures. */
export function summarize(r: PartResult): string {
  const lines = [`${r.status.toUpperCase()} ${r.part}: ${r.name}`];
  for (const c of r.checks) {
    lines.push(`  ${c.status === 'passed' ? 'ok  ' : c.status === 'failed' ? 'FAIL' : 'skip'} ${c.id} — ${c.title}`);
    if (c.status !== 'passed' && c.message) lines.push(...c.message.split('\n').slice(0, 8).map((l) => `         ${l}`));
  }
  const figs = Object.entries(r.figures).map(([k, v]) => `${k}=${v}`).join(' ');
  if (figs) lines.push(`  ${figs}`);
  return lines.join('\n');
}
