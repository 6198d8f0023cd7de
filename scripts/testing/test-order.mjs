#!/usr/bin/env node
// Writes scripts/testing/test-durations.json from a run of the suite written by
//   npx vitest run --reporter=json --outputFile=<file>
// so that a fresh clone (CI has no Vitest cache) starts the longest files first
// (scripts/testing/test-sequencer.ts): a long file started last is the tail of the whole run.
//   node scripts/testing/test-order.mjs RUN.json
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/testing/test-order.mjs RUN.json');
  process.exit(2);
}
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = JSON.parse(readFileSync(file, 'utf8'));
const seconds = Object.fromEntries(
  run.testResults
    .map((t) => [relative(root, t.name).split('\\').join('/'), Math.round((t.endTime - t.startTime) / 1000)])
    .filter(([, s]) => s >= 5)
    .sort((a, b) => b[1] - a[1]),
);
writeFileSync(new URL('./test-durations.json', import.meta.url), JSON.stringify(seconds, null, 2) + '\n');
console.log(`scripts/testing/test-durations.json: ${Object.keys(seconds).length} files of 5 s or more`);
