import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunRow } from '../../reports/history/store.ts';
import type { Extracted } from '../../reports/history/extract.ts';
import { DEFAULT_REPORT_DIR } from './option-values.ts';

interface CompareFlags {
  history?: string;
  reportDir: string;
  maxRegression?: string;
  all?: boolean;
}

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('Compare a run from the history with a baseline (default: the last passing run against the same target): a diff table with direction and significance')
    .argument('<run>', 'run id, or "last"')
    .argument('[baseline]', 'run id (default: the last passing run against the same target before <run>)')
    .option('--report-dir <dir>', 'the reports folder holding history.db', DEFAULT_REPORT_DIR)
    .option('--history <file>', 'the history file (default <report-dir>/history.db)')
    .option('--max-regression <bounds>', 'exit 1 when a figure got worse beyond these bounds, e.g. p95=10%,burst=0')
    .option('--all', 'list unchanged figures too')
    .action(async (run: string, baselineRef: string | undefined, o: CompareFlags) => {
      const { parseBounds } = await import('../../reports/history/bounds.ts');
      const { compareRuns } = await import('../../reports/history/compare.ts');
      const { defaultHistoryPath, History } = await import('../../reports/history/store.ts');
      const { likeBaseline, scopesOf, sharedOnly } = await import('../history/like.ts');
      const { compareVerdict, diffTable } = await import('../../reports/history/table.ts');
      const file = o.history ?? defaultHistoryPath(o.reportDir);
      const bounds = parseBounds(o.maxRegression);
      const h = new History(file);
      try {
        const current = h.find(run);
        if (!current) throw new Error(`run "${run}" is not in ${file}`);
        const currentData = h.load(current);
        let base: { row: RunRow; data: Extracted } | undefined;
        let reason: string;
        if (baselineRef) {
          const row = h.find(baselineRef);
          if (!row) throw new Error(`baseline "${baselineRef}" is not in ${file}`);
          base = { row, data: h.load(row) };
          reason = `run ${row.runId} as asked`;
        } else {
          const found = likeBaseline(h, current, scopesOf(currentData));
          if ('none' in found) reason = found.none;
          else {
            base = found;
            reason = `the last passing run against ${current.target} before it with the same step, scenario and tier`;
          }
        }
        const like = base ? sharedOnly(currentData, base.data) : undefined;
        if (base && like && !like.current.figures.length) reason += `; but the two runs share no step, scenario and tier, so no figure is compared`;
        const c = compareRuns({ runId: current.runId, target: current.target, current: like?.current ?? currentData, baseline: base && like ? { row: base.row, data: like.baseline } : undefined, baselineReason: reason, bounds, history: h });
        if (like?.leftOut.length) console.log(`compare: left out, not measured by both runs: ${like.leftOut.slice(0, 8).join('; ')}${like.leftOut.length > 8 ? `; and ${like.leftOut.length - 8} more` : ''}`);
        const text = diffTable(c, { all: o.all, bounded: bounds.length > 0 });
        process.stdout.write(text);
        const out = join(dirname(file), 'compare');
        mkdirSync(out, { recursive: true });
        const name = `${current.runId}-vs-${base?.row.runId ?? 'none'}`;
        writeFileSync(join(out, `${name}.txt`), text);
        writeFileSync(join(out, `${name}.json`), JSON.stringify(c, null, 2) + '\n');
        console.log(`wrote ${join(out, `${name}.txt`)} and .json`);
        // The exit code is the verdict line's (compareVerdict), never a second judgement.
        process.exitCode = compareVerdict(c, bounds.length > 0).exitCode;
      } finally {
        h.close();
      }
    });
}
