import { formatPartnerReport } from './report.ts';
import type { PartnerReport } from './types.ts';

// The partner report as a failing test: a matcher (`expect(report).toHaveNoPartnerFindings()`)
// and an afterAll helper (`afterAll(() => assertCleanPartnerReport(sandbox))`). The failure
// message is the whole report: each finding's expected / received and the requests behind it.

/** Anything that can give its partner report: a Sandbox, the msw sandbox, a started container. */
export interface ReportSource {
  partnerReport(partner?: string): Promise<PartnerReport>;
}

const NO_REQUESTS = 'expected a partner report over at least one request, received none: no request reached the sandbox (is the msw server listening, and does your client call sandbox.baseUrl?)';

const isReport = (x: unknown): x is PartnerReport => Array.isArray((x as PartnerReport | undefined)?.findings) && Array.isArray((x as PartnerReport).checks);

export const partnerMatchers = {
  toHaveNoPartnerFindings(received: unknown) {
    if (!isReport(received)) return { pass: false, message: () => `expected a partner report (sandbox.partnerReport()), received ${typeof received}` };
    // A report over no request judged nothing: no pass without an answered request (a test
    // whose msw server never listened, or whose client went elsewhere, must not pass).
    if (received.exchanges === 0) return { pass: false, message: () => NO_REQUESTS };
    return {
      pass: received.findings.length === 0,
      message: () => (received.findings.length ? formatPartnerReport(received) : `expected partner findings, received none over ${received.exchanges} requests`),
    };
  },
};

/** What installPartnerMatchers needs of a test runner's expect (Vitest's, or Jest's). */
export interface Extendable {
  extend(matchers: typeof partnerMatchers): void;
}

/**
 * Adds toHaveNoPartnerFindings to your test runner's expect: `installPartnerMatchers(expect)`.
 * It takes the runner's expect rather than importing Vitest, so lendcheck's shipped code never
 * loads a test runner (scripts/shipped.cjs) and Jest users can call it too.
 */
export function installPartnerMatchers(expect: Extendable): void {
  expect.extend(partnerMatchers);
}

/** Throws with the whole report when it has findings, or when no request reached the sandbox (for afterAll); resolves to the report otherwise. */
export async function assertCleanPartnerReport(source: ReportSource | PartnerReport, partner?: string): Promise<PartnerReport> {
  const report = isReport(source) ? source : await source.partnerReport(partner);
  if (report.exchanges === 0) throw new Error(NO_REQUESTS);
  if (report.findings.length) throw new Error(formatPartnerReport(report));
  return report;
}
