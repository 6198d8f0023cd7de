import type { RunSummary } from '../../kernel/results.ts';
import { runKey } from '../../reports/history/provenance.ts';
import { History } from '../../reports/history/store.ts';

/** Appends a finished run to the history file; a history that cannot be written is reported, not fatal. */
export function recordRun(summary: Pick<RunSummary, 'runId' | 'target' | 'profile' | 'startedAt' | 'verdict' | 'parts'>, file: string, kind: 'gate' | 'load', warn: (line: string) => void = (l) => console.error(l)): boolean {
  try {
    const h = new History(file);
    try {
      h.append(summary, runKey(kind));
    } finally {
      h.close();
    }
    return true;
  } catch (e) {
    warn(`warning: run ${summary.runId} was not added to the history ${file}: ${(e as Error).message}`);
    return false;
  }
}
