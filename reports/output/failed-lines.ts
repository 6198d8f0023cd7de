import type { RunSummary } from '../../kernel/results.ts';
import type { Paint } from './color.ts';
import { reproductionSections } from '../repro/curl.ts';

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
/** Of those, the most the seed, deliveries and timeline take when there are curl lines too. */
const REST_LINES_BESIDE_CURLS = 4;
/** The line under a curl that says what the target answered: a step never starts there. */
const ANSWER_LINE = /^#\s+→ /;

/**
 * A failed check's reproduction as the console shows it: all of it when it fits, else the line
 * that says what to set, the END of the curl lines (a check's exchanges end at its failure, so
 * the request that failed is shown, as a person reading a CI log needs; the requests that led up
 * to it are in failures.json), then the start of the seed, deliveries and timeline.
 */
export function consoleReproduction(c: Parameters<typeof reproductionSections>[0]): string[] {
  const { head, steps, rest } = reproductionSections(c);
  if (head.length + steps.length + rest.length <= REPRO_LINES_ON_CONSOLE) return [...head, ...steps, ...rest];
  const restShown = steps.length ? Math.min(rest.length, REST_LINES_BESIDE_CURLS) : REPRO_LINES_ON_CONSOLE - head.length;
  let from = Math.max(0, steps.length - (REPRO_LINES_ON_CONSOLE - head.length - restShown));
  while (from > 0 && from < steps.length - 1 && ANSWER_LINE.test(steps[from])) from++;
  return [
    ...head,
    ...(from > 0 ? [`# … ${from} earlier lines (the requests before these) in failures.json and the report`] : []),
    ...steps.slice(from),
    ...rest.slice(0, restShown),
    ...(rest.length > restShown ? [`# … ${rest.length - restShown} more lines in failures.json and the report`] : []),
  ];
}

/**
 * Each failed check's line, then under it its reproduction (runnable curl lines, keys as
 * $LENDCHECK_API_KEY and the like, never their values; the seed, deliveries…), indented and
 * bounded by consoleReproduction; the rest is in failures.json and the report. One array per
 * check, in the order of failedCheckLines.
 */
export function failedCheckBlocks(parts: RunSummary['parts'], p: Paint): string[][] {
  const lines = failedCheckLines(parts, p);
  const checks = parts.flatMap((part) => part.checks.filter((c) => c.status === 'failed'));
  return checks.map((c, i) => [lines[i], ...consoleReproduction(c).map((l) => `      ${p.dim(l)}`)]);
}
