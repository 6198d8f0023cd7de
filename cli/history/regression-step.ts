import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { partResult, type PartResult } from '../../kernel/results.ts';
import { parseBounds } from '../../reports/history/bounds.ts';
import { compareRuns, comparisonPart } from '../../reports/history/compare.ts';
import { extractRun } from '../../reports/history/extract.ts';
import { History, targetKey } from '../../reports/history/store.ts';
import { diffTable } from '../../reports/history/table.ts';
import type { GateStep } from '../gate/steps.ts';

// The gate's last step under --baseline: this run's parts so far (as the JSON reporter
// wrote them to <run>/parts/) against a run from the history, with --max-regression as
// the bounds. Its result is a part like any other, so its failures fail the gate by the
// same rules.

export interface RegressionOptions {
  /** "last" (the last passing run against the same target) or a run id. */
  baseline: string;
  maxRegression?: string;
  historyFile: string;
}

export function partsSoFar(runDir: string): PartResult[] {
  let files: string[];
  try {
    files = readdirSync(join(runDir, 'parts')).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return files.map((f) => partResult.parse(JSON.parse(readFileSync(join(runDir, 'parts', f), 'utf8'))));
}

export function regressionStep(o: RegressionOptions): GateStep {
  const bounds = parseBounds(o.maxRegression); // bad bounds fail before any step runs
  return {
    name: 'regression',
    part: 'regression',
    title: `compared with ${o.baseline === 'last' ? 'the last passing run' : o.baseline}`,
    needs: [],
    async run(ctx) {
      const startedAt = new Date().toISOString();
      const t0 = performance.now();
      const runId = basename(ctx.runDir);
      const target = ctx.target.label;
      const current = extractRun({ parts: partsSoFar(ctx.runDir) });
      const history = new History(o.historyFile);
      try {
        const row = o.baseline === 'last' ? history.runs({ target, verdict: 'passed', limit: 1 })[0] : history.find(o.baseline);
        const key = targetKey(target);
        const earlier = history.runs({ target }).length;
        const reason = row
          ? o.baseline === 'last'
            ? `the last passing run against ${key} (${row.startedAt}, lendcheck ${row.version}${row.commit ? `, commit ${row.commit.slice(0, 12)}` : ''})`
            : `run ${row.runId} as asked (${row.verdict}, ${row.startedAt})`
          : o.baseline === 'last'
            ? `no earlier passing run against ${key} in ${o.historyFile}${earlier ? ` (${earlier} earlier run${earlier === 1 ? '' : 's'}, none passed: name one with --baseline <run-id>)` : ''}`
            : `run ${o.baseline} is not in ${o.historyFile}`;
        const comparison = compareRuns({ runId, target, current, baseline: row ? { row, data: history.load(row) } : undefined, baselineReason: reason, bounds, history });
        for (const line of diffTable(comparison, { verdict: false }).trimEnd().split('\n')) ctx.log(line);
        return comparisonPart(comparison, bounds, { target, profile: ctx.profile.name, startedAt, durationMs: Math.round(performance.now() - t0) });
      } finally {
        history.close();
      }
    },
  };
}
