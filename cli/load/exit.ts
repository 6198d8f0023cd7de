import type { PartResult } from '../../kernel/results.ts';
import { EXIT } from '../exit-codes.ts';

// k6's own exit codes (go.k6.io/k6/errext/exitcodes) mapped onto lendcheck's one table, so
// `load` never exits 99 and a CI reads the same four codes from every command. k6's code
// stays in the figures (k6ExitCode) and in the line printed beside the verdict.

/** k6 was stopped before its plan ended: nothing failed, but not everything was observed. */
const INTERRUPTED = new Set([105 /* ExternalAbort (SIGINT) */, 108 /* ScriptAborted */]);

export function loadExitCode(r: Pick<PartResult, 'status' | 'figures'>): number {
  if (r.status === 'passed') return EXIT.pass;
  if (r.status === 'skipped' || r.status === 'incomplete') return EXIT.incomplete;
  const k6 = Number(r.figures.k6ExitCode);
  if (INTERRUPTED.has(k6)) return EXIT.incomplete;
  // 99 (thresholds failed), 110 (marked failed), timeouts, and the rest: a rule broken or a run that failed.
  return EXIT.fail;
}
