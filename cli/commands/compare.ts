import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseBounds } from '../../reports/history/bounds.ts';
import { compareRuns } from '../../reports/history/compare.ts';
import { defaultHistoryPath, History } from '../../reports/history/store.ts';
import { diffTable } from '../../reports/history/table.ts';

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
    .option('--report-dir <dir>', 'the reports folder holding history.db', 'lendcheck-reports')
    .option('--history <file>', 'the history file (default <report-dir>/history.db)')
    .option('--max-regression <bounds>', 'exit 1 when a figure got worse beyond these bounds, e.g. p95=10%,burst=0')
    .option('--all', 'list unchanged figures too')
    .action((run: string, baselineRef: string | undefined, o: CompareFlags) => {
      const file = o.history ?? defaultHistoryPath(o.reportDir);
      const bounds = parseBounds(o.maxRegression);
      const h = new History(file);
      try {
        const current = h.find(run);
        if (!current) throw new Error(`run "${run}" is not in ${file}`);
        const base = baselineRef ? h.find(baselineRef) : h.lastPassing(current);
        if (baselineRef && !base) throw new Error(`baseline "${baselineRef}" is not in ${file}`);
        const reason = base ? (baselineRef ? `run ${base.runId} as asked` : `the last passing run against ${current.target} before it`) : `no passing run against ${current.target} before ${current.runId}`;
        const c = compareRuns({ runId: current.runId, target: current.target, current: h.load(current), baseline: base ? { row: base, data: h.load(base) } : undefined, baselineReason: reason, bounds, history: h });
        const text = diffTable(c, { all: o.all });
        process.stdout.write(text);
        const out = join(dirname(file), 'compare');
        mkdirSync(out, { recursive: true });
        const name = `${current.runId}-vs-${base?.runId ?? 'none'}`;
        writeFileSync(join(out, `${name}.txt`), text);
        writeFileSync(join(out, `${name}.json`), JSON.stringify(c, null, 2) + '\n');
        console.log(`wrote ${join(out, `${name}.txt`)} and .json`);
        if (c.rows.some((r) => r.regression) || (bounds.length && c.newFailures.length)) process.exitCode = 1;
      } finally {
        h.close();
      }
    });
}
