// The load run as JUnit: each threshold and each k6 check is a test case, so a CI system
// shows which limit rule broke without reading k6's summary.
import junitModule, { type Builder } from 'junit-report-builder';
import type { CheckResult } from '../../contract/results.ts';

// CommonJS with an ES-style default: which object a default import yields depends on the loader.
const junit: Builder = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as Builder;

export function writeJunit(file: string, suiteName: string, checks: CheckResult[]): void {
  const b = junit.newBuilder();
  const suite = b.testSuite().name(suiteName);
  for (const c of checks) {
    const tc = suite.testCase().className(c.id.split(':')[0]).name(c.title).time(c.durationMs / 1000);
    if (c.status === 'failed') tc.failure(c.message ?? 'failed');
    if (c.status === 'skipped') tc.skipped().standardOutput(c.message ?? '');
  }
  b.writeTo(file);
}
