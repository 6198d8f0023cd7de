import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './scripts/testing/test-sequencer.ts';

// Files whose assertions hold only while they have the machine to themselves: k6 runs judged by
// rate-limit timing and latency thresholds, and the kill drills, which count what was in flight
// at the kill. They run after the others, one file at a time, as the whole suite used to.
const ALONE = [
  'cli/load/load.test.ts',
  'cli/load/audit/audit.test.ts',
  'cli/history/regression.test.ts',
  'examples/prometheus-rw/live-metrics.test.ts',
  'sandbox/store/kill.test.ts',
  'sandbox/store/kill-mixed.test.ts',
  'sandbox/webhooks/kill.test.ts',
];

const NOT_TESTS = ['node_modules/**', 'dist/**', 'scenarios/**', 'lendcheck-reports/**', '.tmp/**'];

export default defineConfig({
  // The package's own name resolves to its sources here, as tsc does through the
  // 'lendcheck-source' condition (package.json exports), so tests need no build first.
  resolve: {
    alias: [
      { find: /^lendcheck$/, replacement: fileURLToPath(new URL('./index.ts', import.meta.url)) },
      { find: /^lendcheck\/msw$/, replacement: fileURLToPath(new URL('./sandbox/msw/index.ts', import.meta.url)) },
      { find: /^lendcheck\/testcontainers$/, replacement: fileURLToPath(new URL('./sandbox/testcontainers/index.ts', import.meta.url)) },
      { find: /^lendcheck\/types$/, replacement: fileURLToPath(new URL('./contract/endpoint-bodies.ts', import.meta.url)) },
      { find: /^lendcheck\/client$/, replacement: fileURLToPath(new URL('./contract/client.ts', import.meta.url)) },
      { find: /^lendcheck\/profile$/, replacement: fileURLToPath(new URL('./contract/profile-define.ts', import.meta.url)) },
      { find: /^lendcheck\/matchers$/, replacement: fileURLToPath(new URL('./sandbox/partner-report/matchers.ts', import.meta.url)) },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Longest files first, from durations measured once (a fresh clone has no Vitest cache).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        // Vitest's default on 2 cores is one worker (cores - 1), so every file waited for the one
        // before it, though most of them spend their time waiting (retry schedules, receivers,
        // spawned CLIs, bounded polls). Four files at a time overlap those waits: thirteen of the
        // longest files, each measured alone, used 291 CPU-seconds over 1,344 s of wall (the
        // leave-nothing file 18 over 215, the budget keys 6 over 73, the chaos schedules 5 over
        // 48-75, Schemathesis 75 over 91), so at three files the two cores stood idle much of the run.
        test: { name: 'shared', include: ['**/*.test.ts'], exclude: [...NOT_TESTS, ...ALONE], maxWorkers: 4 },
      },
      { extends: true, test: { name: 'alone', include: ALONE, exclude: NOT_TESTS, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
