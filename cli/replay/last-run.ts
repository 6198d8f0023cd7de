import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FAILURES_FILE } from '../../reports/repro/failures-file.ts';

// gate --rerun-failed: the last gate run in a report directory. Run ids begin with their UTC
// start time (cli/gate/run.ts newRunId), so the greatest name is the newest run.
const RUN_ID = /^\d{8}T\d{6}Z-[0-9a-f]+$/;

export function lastFailuresFile(reportDir: string): string {
  const runs = existsSync(reportDir) ? readdirSync(reportDir).filter((n) => RUN_ID.test(n) && statSync(join(reportDir, n)).isDirectory()).sort() : [];
  const last = runs.at(-1);
  if (!last) throw new Error(`--rerun-failed: no gate run in ${reportDir} (run the gate first, or give the --report-dir it wrote to)`);
  const file = join(reportDir, last, FAILURES_FILE);
  if (!existsSync(file)) throw new Error(`--rerun-failed: the last run in ${reportDir} (${last}) has no ${FAILURES_FILE}: it was written by an older lendcheck, or did not finish`);
  return file;
}
