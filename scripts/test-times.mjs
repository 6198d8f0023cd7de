#!/usr/bin/env node
// Compares two runs of the suite, each written by
//   npx vitest run --reporter=json --outputFile=<file>
// per test file (the files both runs have) and as a whole (wall span and summed file time),
// with ratios new/old. Speed is a benchmark, not a timed test: run both in the same
// conditions, one after the other, and compare here.
//   node scripts/test-times.mjs OLD.json NEW.json [--all]
import { readFileSync } from 'node:fs';

const [oldFile, newFile] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!oldFile || !newFile) {
  console.error('usage: node scripts/test-times.mjs OLD.json NEW.json [--all]');
  process.exit(2);
}
const all = process.argv.includes('--all');

function load(file) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const files = new Map();
  for (const t of r.testResults) {
    // Relative to the checkout, so two worktrees compare file by file.
    const name = t.name.replace(/^.*?\/((?:bench|chaos|cli|conformance|contract|examples|reports|sandbox|scripts)\/)/, '$1');
    files.set(name, { ms: t.endTime - t.startTime, status: t.status, tests: t.assertionResults.length });
  }
  const start = Math.min(...r.testResults.map((t) => t.startTime));
  const end = Math.max(...r.testResults.map((t) => t.endTime));
  return { files, spanMs: end - start, tests: r.numTotalTests, passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
}

const a = load(oldFile);
const b = load(newFile);
const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
const ratio = (x, y) => (x > 0 ? (y / x).toFixed(2) : '-').padStart(6);
const common = [...a.files.keys()].filter((f) => b.files.has(f)).sort((x, y) => b.files.get(y).ms - a.files.get(y).ms - (b.files.get(x).ms - a.files.get(x).ms));
console.log(`${'file'.padEnd(48)} ${'old s'.padStart(7)} ${'new s'.padStart(7)} ${'new/old'.padStart(7)}`);
let sa = 0;
let sb = 0;
for (const f of common) {
  const x = a.files.get(f).ms;
  const y = b.files.get(f).ms;
  sa += x;
  sb += y;
  if (all || Math.abs(y - x) > 1000) console.log(`${f.padEnd(48)} ${s(x)} ${s(y)} ${ratio(x, y)}${b.files.get(f).status === 'passed' ? '' : `  (${b.files.get(f).status})`}`);
}
const only = (m, n) => [...m.files.keys()].filter((f) => !n.files.has(f));
console.log(`\n${common.length} files in both: summed file time ${s(sa)} -> ${s(sb)} s (${ratio(sa, sb)})`);
console.log(`only in new: ${only(b, a).length} files, ${s([...only(b, a)].reduce((t, f) => t + b.files.get(f).ms, 0))} s summed; only in old: ${only(a, b).length}`);
console.log(`whole run (first file start to last file end): old ${s(a.spanMs)} s, ${a.files.size} files, ${a.tests} tests (${a.passed} passed, ${a.failed} failed, ${a.skipped} skipped)`);
console.log(`                                               new ${s(b.spanMs)} s, ${b.files.size} files, ${b.tests} tests (${b.passed} passed, ${b.failed} failed, ${b.skipped} skipped); new/old ${ratio(a.spanMs, b.spanMs)}`);
