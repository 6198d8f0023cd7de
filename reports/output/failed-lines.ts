import type { RunSummary } from '../../kernel/results.ts';
import type { Paint } from './color.ts';
import { reproductionText } from '../repro/curl.ts';

/** One line per failed check, with the requirement ids it breaks: the end of a run's output. */
export function failedCheckLines(parts: RunSummary['parts'], p: Paint): string[] {
  return parts.flatMap((part) =>
    part.checks
      .filter((c) => c.status === 'failed')
      .map((c) => `  ${p.red('✗')} ${c.requirements.length ? `[${c.requirements.join(', ')}] ` : ''}${part.part}/${c.id}: ${firstLine(c.message ?? c.title)}${c.internalError ? p.yellow(' (lendcheck internal error)') : ''}`),
  );
}

function firstLine(s: string): string {
  const l = s.split('\n')[0];
  return l.length > 240 ? `${l.slice(0, 240)}…` : l;
}

/** A reproduction on the console: the lines a reader can paste, at most this many per check. */
export const REPRO_LINES_ON_CONSOLE = 12;

/**
 * Each failed check's line, then under it its reproduction (runnable curl lines, keys as
 * $LENDCHECK_API_KEY and the like, never their values; the seed, deliveries…), indented and at
 * most REPRO_LINES_ON_CONSOLE lines; the rest is in failures.json and the report. One array per
 * check, in the order of failedCheckLines.
 */
export function failedCheckBlocks(parts: RunSummary['parts'], p: Paint): string[][] {
  const lines = failedCheckLines(parts, p);
  const checks = parts.flatMap((part) => part.checks.filter((c) => c.status === 'failed'));
  return checks.map((c, i) => {
    const repro = reproductionText(c);
    const shown = repro.length > REPRO_LINES_ON_CONSOLE ? [...repro.slice(0, REPRO_LINES_ON_CONSOLE), `# … ${repro.length - REPRO_LINES_ON_CONSOLE} more lines in failures.json and the report`] : repro;
    return [lines[i], ...shown.map((l) => `      ${p.dim(l)}`)];
  });
}
