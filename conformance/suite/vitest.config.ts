import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// A project of its own, so the repo's `npm test` never runs the target checks by accident:
// the suite file is not named *.test.ts, and only this config includes it. Checks run in
// order in one file (they share a target and a run), so there is one worker.

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'conformance',
    include: ['conformance/suite/conformance.suite.{ts,js}'], // .js in the compiled package
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    watch: false,
  },
});
