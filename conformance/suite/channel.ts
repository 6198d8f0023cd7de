import type { ConformanceResult } from '../runner.ts';
import type { ResolvedTarget } from '../target.ts';

// The two typed roads between runConformance (the main process) and the suite in Vitest's
// worker, both Vitest's own: the resolved target goes out with `provide` (read in the suite
// with `inject`), and the run's result comes back on the test file's task meta, which Vitest
// sends to the main process with the file's last update. No environment variable and no file.

/** The key the run's target is provided under. */
export const TARGET_KEY = 'lendcheckTarget';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The target of the run, flags and environment read once by runConformance (conformance/target.ts). */
    [TARGET_KEY]: ResolvedTarget;
  }
}

/** What the suite leaves on its file's meta. */
interface SuiteMeta {
  lendcheckResult?: ConformanceResult;
}

/** In the worker: the result on the file task (afterAll's suite), as plain JSON data like every report. */
export function leaveResult(meta: object, result: ConformanceResult): void {
  (meta as SuiteMeta).lendcheckResult = JSON.parse(JSON.stringify(result)) as ConformanceResult;
}

/** In the main process: the result of the first test module that left one. */
export function resultOf(modules: ReadonlyArray<{ meta(): object }>): ConformanceResult | undefined {
  for (const m of modules) {
    const r = (m.meta() as SuiteMeta).lendcheckResult;
    if (r) return r;
  }
  return undefined;
}
