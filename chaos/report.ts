import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import junitModule, { type Builder as JunitBuilder } from 'junit-report-builder';
import { results } from '../contract/index.ts';

type PartResult = results.PartResult;

// CommonJS package with an ES-style default: which object the default import yields depends
// on the loader (tsx, vitest or plain Node), so take whichever holds the builder.
const junit: JunitBuilder = ((junitModule as unknown as { default?: JunitBuilder }).default ?? junitModule) as JunitBuilder;

/** JUnit XML of a part: one test case per check, and one per timeline event when there is a timeline. */
export function junitXml(r: PartResult): string {
  const builder = junit.newBuilder();
  const suite = builder.testSuite().name(`lendcheck ${r.part}: ${r.name}`).timestamp(r.startedAt).time(r.durationMs / 1000);
  for (const c of r.checks) {
    const tc = suite.testCase().className(`${r.part}.${c.id.split('.')[0]}`).name(`${c.id}: ${c.title}`).time(c.durationMs / 1000);
    if (c.status === 'failed') tc.failure(c.message ?? 'failed');
    else if (c.status === 'skipped') tc.skipped().standardOutput(c.message ?? 'skipped');
    if (c.notes.length && c.status !== 'skipped') tc.standardOutput(c.notes.join('\n'));
  }
  for (const t of r.timeline ?? []) {
    const tc = suite.testCase().className(`${r.part}.timeline`).name(`${t.type} ${t.eventId}`);
    const text = `expected offsets (ms): ${t.expectedMs.join(', ')}\nobserved offsets (ms): ${t.observedMs.join(', ')}`;
    if (t.verdict === 'failed') tc.failure(t.message ?? 'see the failed checks', 'timeline').standardOutput(text);
    else tc.standardOutput(`${text}${t.message ? `\n${t.message}` : ''}`);
  }
  return builder.build();
}

/** Writes <dir>/<base>.json (the shared results format) and <dir>/<base>.junit.xml. */
export function writeReports(r: PartResult, dir: string, base: string): { json: string; junit: string } {
  const parsed = results.partResult.parse(r);
  mkdirSync(dir, { recursive: true });
  const json = join(dir, `${base}.json`);
  const xml = join(dir, `${base}.junit.xml`);
  writeFileSync(json, JSON.stringify(parsed, null, 2) + '\n');
  writeFileSync(xml, junitXml(parsed));
  return { json, junit: xml };
}

/** Exit code of a part's verdict: 0 passed, 3 incomplete (nothing failed, but not everything was observed), 1 otherwise. */
export function exitCodeFor(status: PartResult['status']): number {
  return status === 'passed' ? 0 : status === 'incomplete' ? 3 : 1;
}

/** A console summary: verdict, failed checks with their messages, figures. */
export function summarize(r: PartResult): string {
  const lines = [`${r.status.toUpperCase()} ${r.part}: ${r.name}`];
  for (const c of r.checks) {
    lines.push(`  ${c.status === 'passed' ? 'ok  ' : c.status === 'failed' ? 'FAIL' : 'skip'} ${c.id} — ${c.title}`);
    if (c.status !== 'passed' && c.message) lines.push(...c.message.split('\n').slice(0, 8).map((l) => `         ${l}`));
  }
  const figs = Object.entries(r.figures).map(([k, v]) => `${k}=${v}`).join(' ');
  if (figs) lines.push(`  ${figs}`);
  return lines.join('\n');
}
