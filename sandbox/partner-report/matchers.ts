// `lendcheck/matchers`: the partner report as a failing test, for every way of running the
// sandbox (msw, startSandbox, the container): `installPartnerMatchers(expect)` then
// `expect(await sandbox.partnerReport()).toHaveNoPartnerFindings()`, or
// `afterAll(() => assertCleanPartnerReport(sandbox))`. It reaches no test runner, no engine and
// no container library: lendcheck/testcontainers re-exports it for the code written before.
export { assertCleanPartnerReport, installPartnerMatchers, partnerMatchers, type Extendable, type ReportSource } from './vitest.ts';
export { formatPartnerReport } from './report.ts';
export type { Finding, PartnerReport } from './types.ts';
