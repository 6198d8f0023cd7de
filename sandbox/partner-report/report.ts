import type { Finding, ObservedRun, PartnerCheck, PartnerReport } from './types.ts';

// Runs the checks over one observed run, and words a report for a failing test.

export function buildReport(checks: readonly PartnerCheck[], observed: ObservedRun, dropped: number, partner?: string): PartnerReport {
  const ordered: ObservedRun = { ...observed, exchanges: [...observed.exchanges].sort((a, b) => a.seq - b.seq) };
  let findings: Finding[] = checks.flatMap((c) => c.run(ordered));
  // A partner's view: its own findings, and those no partner could be named for (a ck_live_ key, a keyless request).
  if (partner !== undefined) findings = findings.filter((f) => f.partner === undefined || f.partner === partner);
  return { findings, checks: checks.map((c) => c.name), exchanges: observed.exchanges.length, deliveries: observed.deliveries.length, dropped };
}

/** The report as lines: one block per finding, "expected … / received …", then its evidence. */
export function formatPartnerReport(report: PartnerReport): string {
  if (!report.findings.length) return `partner report: no findings (${report.checks.length} checks over ${report.exchanges} requests and ${report.deliveries} deliveries)`;
  const lines = [`partner report: ${report.findings.length} finding(s) over ${report.exchanges} requests and ${report.deliveries} deliveries`];
  for (const f of report.findings) {
    lines.push(`- ${f.check}${f.partner ? ` (${f.partner})` : ''}: ${f.rule}`, `    expected ${f.expected}`, `    received ${f.received}`);
    for (const r of f.requests) lines.push(`      #${r.seq} ${r.at} ${r.method} ${r.target} -> ${r.status}${r.note ? `  (${r.note})` : ''}`);
    for (const d of f.deliveries ?? []) lines.push(`      delivery ${d.eventId} ${d.type} -> ${d.url}: ${d.status ?? d.error ?? 'no answer'}${d.latencyMs !== null ? ` in ${d.latencyMs} ms` : ''}${d.probe ? ' (mis-signed probe)' : ''}`);
  }
  if (report.dropped) lines.push(`(the oldest ${report.dropped} requests were past the record's cap and not checked)`);
  return lines.join('\n');
}
