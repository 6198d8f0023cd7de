import { resolve } from 'node:path';
import { REQUIREMENTS } from '../contract/index.ts';
import { dirContext, JunitReporter } from '../reports/writers.ts';
import { RECEIVER_SIDE, RECEIVER_SIDE_NOTE } from './receiver-side.ts';
import type { ConformanceResult } from './runner.ts';
import type { TargetOptions } from './target.ts';
import { writeFailuresFile, type ReplayMeta } from '../reports/repro/failures-file.ts';
import { fingerprintCredentials } from '../reports/repro/fingerprint.ts';

// The two files of a conformance run, written straight into the report dir: JUnit XML
// (through the shared JunitReporter, so CI sees the same layout as a gate run) and
// conformance.json (every check, the requirement coverage table and the profile choices
// the target was seen to follow). Both pass through the shared redactor once more.

export interface ConformanceReport {
  summary: { status: string; target?: string; profile?: string; checks: number; passed: number; failed: number; skipped: number; durationMs: number };
  checks: ConformanceResult['checks'];
  coverage: Array<{ requirement: string; section: string; text: string; checks: Array<{ id: string; status: string }>; result: string; note?: string }>;
  /** One row per profile option seen: followed when every observation agreed with the profile. */
  profileSummary: Array<{ option: string; expected: string; followed: boolean; observations: number; received: string[] }>;
  profileChoices: ConformanceResult['profileChoices'];
  part: ConformanceResult;
}

function summarise(rows: ConformanceResult['profileChoices']): ConformanceReport['profileSummary'] {
  const by = new Map<string, ConformanceReport['profileSummary'][number]>();
  for (const r of rows) {
    const cur = by.get(r.option) ?? { option: r.option, expected: r.expected, followed: true, observations: 0, received: [] };
    cur.observations++;
    if (!r.followed) {
      cur.followed = false;
      if (r.received && !cur.received.includes(r.received)) cur.received.push(r.received);
    }
    by.set(r.option, cur);
  }
  return [...by.values()].sort((a, b) => a.option.localeCompare(b.option));
}

export function buildReport(r: ConformanceResult): ConformanceReport {
  const byId = new Map(r.checks.map((c) => [c.id, c]));
  return {
    summary: {
      status: r.status,
      target: r.target,
      profile: r.profile,
      checks: r.checks.length,
      passed: Number(r.figures.passed),
      failed: Number(r.figures.failed),
      skipped: Number(r.figures.skipped),
      durationMs: r.durationMs,
    },
    checks: r.checks,
    coverage: (r.coverage ?? []).map((row) => {
      const q = REQUIREMENTS.find((x) => x.id === row.requirement)!;
      const note = (RECEIVER_SIDE as readonly string[]).includes(row.requirement) ? { note: RECEIVER_SIDE_NOTE } : {};
      return { requirement: row.requirement, section: q.section, text: q.text, checks: row.checks.map((id) => ({ id, status: byId.get(id)?.status ?? 'not run' })), result: row.result, ...note };
    }),
    profileSummary: summarise(r.profileChoices),
    profileChoices: r.profileChoices,
    part: r,
  };
}

/** How a run was made, for `lendcheck replay`: the target unless embedded, the profile file, seed and strictness. */
export function replayMeta(t: TargetOptions, embedded?: unknown): Partial<ReplayMeta> {
  return {
    ...(t.baseUrl && !embedded ? { baseUrl: t.baseUrl } : {}),
    ...(t.publicBaseUrl && !embedded ? { publicBaseUrl: t.publicBaseUrl } : {}),
    ...(t.profileFile ? { profileFile: resolve(t.profileFile) } : {}),
    ...(t.seed !== undefined ? { seed: t.seed } : {}),
    strict: !!t.strict,
    readOnly: !!t.readOnly,
    credentials: fingerprintCredentials(t.baseUrl && !embedded ? t.baseUrl : undefined, { apiKey: t.apiKey, apiKey2: t.apiKey2, burstKey: t.burstKey }),
  };
}

export function writeReports(r: ConformanceResult, dir: string, secrets: string[] = [], meta: Partial<ReplayMeta> = {}): string[] {
  const ctx = dirContext(resolve(dir), secrets.filter(Boolean));
  const json = ctx.write('conformance.json', JSON.stringify(ctx.redactor.value(buildReport(r)), null, 2) + '\n');
  const summary = {
    runId: 'conformance',
    verdict: r.status === 'failed' ? ('failed' as const) : r.status === 'incomplete' ? ('incomplete' as const) : ('passed' as const),
    ...(r.status === 'incomplete' && r.skipReason ? { verdictReasons: [r.skipReason] } : {}),
    target: r.target ?? '',
    profile: r.profile ?? '',
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    parts: [r],
  };
  const junit = new JunitReporter().onRunEnd(summary, ctx);
  const failures = writeFailuresFile(ctx, summary, meta);
  return [json, ...junit, failures];
}
