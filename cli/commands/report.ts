import type { Command } from 'commander';
import { DEFAULT_REPORT_DIR, REPORTER_NAMES } from './option-values.ts';

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('Write the HTML, JUnit and JSON reports from a run summary (summary.json), or from a built-in demo run')
    .argument('[summary]', 'a summary.json written by the gate (or any RunSummary JSON)')
    .option('--report-dir <dir>', 'where reports go (<dir>/<run-id>/)', DEFAULT_REPORT_DIR)
    .option('--reporters <names>', `comma-separated, from: ${REPORTER_NAMES.join(', ')}`, REPORTER_NAMES.join(','))
    .option('--demo', 'write the report of a built-in demo run (made-up figures, labelled as such)', false)
    .action(async (file: string | undefined, opts: { reportDir: string; reporters: string; demo: boolean }) => {
      if (!file && !opts.demo) throw new Error('give a summary.json, or --demo');
      const { readRunSummary, writeReports } = await import('../../reports/writers.ts');
      const { fixtureComparedRun } = await import('../../reports/history/fixture.ts');
      const input = opts.demo ? { ...fixtureComparedRun(), runId: 'demo', target: 'demo run (made-up figures, no service was tested)' } : readRunSummary(file!);
      const { dir, files } = await writeReports(input, { reportDir: opts.reportDir, reporters: opts.reporters.split(',').map((s) => s.trim()) });
      console.log(`wrote ${files.length} file(s) to ${dir}`);
      for (const f of files) console.log(`  ${f}`);
    });
}
