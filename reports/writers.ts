import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import junitModule, { type Builder as JunitBuilder } from 'junit-report-builder';
import { runSummary, partResult, type RunSummary, type PartResult } from '../kernel/results.ts';
import { createRedactor, type Redactor } from './redact.ts';
import { renderReportPage } from './html-page.ts';
import { reproductionText } from './repro/curl.ts';
import { adviceBasis } from './output/advisory-lines.ts';

// Report writers in the style of Vitest reporters: a class per format with lifecycle
// hooks, called by whoever runs the parts (the gate, or `lendcheck report`). The map
// REPORTERS is the list of valid names.

// The package is CommonJS with an ES-style default: which object a default import yields
// depends on the loader (tsx or plain Node), so take whichever holds the builder.
const junitRoot: JunitBuilder = ((junitModule as unknown as { default?: JunitBuilder }).default ?? junitModule) as JunitBuilder;

export interface RunStart {
  runId: string;
  target: string;
  profile: string;
  startedAt: string;
}

/** What a writer may touch: its run directory, through a sink that redacts everything. */
export interface ReportContext {
  dir: string;
  redactor: Redactor;
  /** Writes a file under dir, redacted; returns its absolute path. */
  write(name: string, text: string): string;
}

export interface Reporter {
  onRunStart?(run: RunStart, ctx: ReportContext): void | Promise<void>;
  onPartResult?(part: PartResult, ctx: ReportContext): void | Promise<void>;
  /** Returns the files written. */
  onRunEnd?(summary: RunSummary, ctx: ReportContext): string[] | Promise<string[]>;
}

export class HtmlReporter implements Reporter {
  onRunEnd(summary: RunSummary, ctx: ReportContext): string[] {
    // Redact the data before rendering too, so that escaping cannot split a key into
    // pieces the text pass would no longer recognise.
    return [ctx.write('index.html', renderReportPage(ctx.redactor.value(summary)))];
  }
}

/**
 * The one JUnit writer: a suite per part, a case per check (and per timeline event, so a CI
 * shows which event broke or is still pending), and a failing case for an INCOMPLETE verdict.
 */
export function junitXml(s: RunSummary): string {
  const b = junitRoot.newBuilder().name(`lendcheck ${s.runId}`);
  for (const p of s.parts) {
    const suite = b.testSuite().name(`${p.part}: ${p.name}`).timestamp(p.startedAt).time(p.durationMs / 1000);
    suite.property('target', p.target ?? s.target).property('profile', p.profile ?? s.profile);
    if (p.checks.length === 0) {
      // A part with no checks still shows in CI: as a skipped case with its reason, or
      // as its own pass/fail when it ran but recorded nothing finer.
      const tc = suite.testCase().className(p.part).name(p.name).time(p.durationMs / 1000);
      if (p.status === 'skipped') tc.skipped().standardOutput(skipText(p.skipReason));
      else if (p.status === 'incomplete') tc.failure(`incomplete: ${p.skipReason ?? 'not observed to its end'}`, 'incomplete');
      else if (p.status === 'failed') tc.failure(p.skipReason ?? 'part failed without checks', 'part');
    }
    for (const c of p.checks) {
      const tc = suite.testCase().className(`${p.part}.${c.id}`).name(c.title).time(c.durationMs / 1000);
      if (c.requirements.length) tc.property('requirements', c.requirements.join(','));
      if (c.status === 'failed') {
        // The failure's body is what a CI shows under the red case: the message, the requirements
        // it breaks and the reproduction (curl lines, seed, deliveries, timeline).
        const body = [c.message ?? 'failed', ...(c.requirements.length ? [`breaks ${c.requirements.join(', ')}`] : []), ...reproductionText(c), ...(c.internalError ? ['lendcheck internal error (a bug in lendcheck, not a verdict on the target):', c.internalError] : [])];
        tc.failure(c.message ?? 'failed', 'check').stacktrace(body.join('\n'));
        if (c.exchange) tc.standardOutput(JSON.stringify(c.exchange, null, 2));
      } else if (c.status === 'skipped') {
        tc.skipped().standardOutput(skipText(c.message));
      } else if (c.notes.length || c.advisories?.length) {
        // Advice beside the notes, never as a failure (issue 47).
        tc.standardOutput([...c.notes, ...(c.advisories ?? []).map((a) => `advice [${adviceBasis(a)}]: expected ${a.expected} / received ${a.received}${a.evidence ? ` (${a.evidence})` : ''}`)].join('\n'));
      }
    }
    for (const t of p.timeline ?? []) {
      const tc = suite.testCase().className(`${p.part}.timeline`).name(`${t.type} ${t.eventId}`);
      const offsets = `expected offsets (ms): ${t.expectedMs.join(', ')}\nobserved offsets (ms): ${t.observedMs.join(', ')}`;
      if (t.verdict === 'failed') tc.failure(t.message ?? 'see the failed checks', 'timeline').standardOutput(offsets);
      else if (t.verdict === 'pending') tc.skipped().standardOutput(`pending: ${t.message ?? 'the schedule was not observed to its end'}\n${offsets}`);
      else tc.standardOutput(`${offsets}${t.message ? `\n${t.message}` : ''}`);
    }
  }
  // An INCOMPLETE run is not green in CI either: one failing case says why.
  if (s.verdict === 'incomplete') {
    const suite = b.testSuite().name('lendcheck verdict');
    suite.testCase().className('verdict').name('INCOMPLETE').failure(`INCOMPLETE: ${(s.verdictReasons ?? []).join('; ') || 'a part could not finish observing'}`, 'incomplete');
  }
  return b.build();
}

export class JunitReporter implements Reporter {
  onRunEnd(summary: RunSummary, ctx: ReportContext): string[] {
    return [ctx.write('junit.xml', junitXml(ctx.redactor.value(summary)))];
  }
}

const skipText = (reason?: string): string => (reason && /^skipped\b/i.test(reason) ? reason : `skipped: ${reason ?? 'no reason given'}`);

export class JsonReporter implements Reporter {
  private index = 0;
  onRunStart(): void {
    this.index = 0;
  }
  onPartResult(part: PartResult, ctx: ReportContext): void {
    // Each part as it lands, so a crash later in the run still leaves what was measured.
    ctx.write(join('parts', `${String(++this.index).padStart(2, '0')}-${part.part}.json`), JSON.stringify(ctx.redactor.value(part), null, 2));
  }
  onRunEnd(summary: RunSummary, ctx: ReportContext): string[] {
    return [ctx.write('summary.json', JSON.stringify(ctx.redactor.value(summary), null, 2) + '\n')];
  }
}

export const REPORTERS = {
  html: HtmlReporter,
  junit: JunitReporter,
  json: JsonReporter,
} as const satisfies Record<string, new () => Reporter>;

export type ReporterName = keyof typeof REPORTERS;
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

export function createReporters(names: readonly string[] = REPORTER_NAMES): Reporter[] {
  return names.map((n) => {
    const C = (REPORTERS as Record<string, new () => Reporter>)[n];
    if (!C) throw new Error(`unknown reporter "${n}": valid names are ${REPORTER_NAMES.join(', ')}`);
    return new C();
  });
}

export const DEFAULT_REPORT_DIR = 'lendcheck-reports';

export function createContext(reportDir: string, runId: string, secrets: Iterable<string> = []): ReportContext {
  if (!/^[A-Za-z0-9._-]+$/.test(runId) || runId.startsWith('.')) throw new Error(`invalid run id "${runId}": letters, digits, '.', '_' and '-' only`);
  return dirContext(resolve(reportDir, runId), secrets);
}

/** A sink for one directory: every file written through it passes the one redactor. */
export function dirContext(dir: string, secrets: Iterable<string> = []): ReportContext {
  mkdirSync(dir, { recursive: true });
  const redactor = createRedactor(secrets);
  return {
    dir,
    redactor,
    write(name, text) {
      const file = join(dir, name);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, redactor.text(text));
      return file;
    },
  };
}

/** Drives a set of reporters through one run; the gate feeds it part by part. */
export class ReportRun {
  readonly ctx: ReportContext;
  private readonly parts: PartResult[] = [];
  constructor(
    readonly start: RunStart,
    opts: { reportDir?: string; reporters?: readonly string[]; secrets?: Iterable<string> } = {},
    private readonly reporters: Reporter[] = createReporters(opts.reporters),
  ) {
    this.ctx = createContext(opts.reportDir ?? DEFAULT_REPORT_DIR, start.runId, opts.secrets);
  }
  async begin(): Promise<void> {
    for (const r of this.reporters) await r.onRunStart?.(this.start, this.ctx);
  }
  async part(p: PartResult): Promise<void> {
    const parsed = partResult.parse(p);
    this.parts.push(parsed);
    for (const r of this.reporters) await r.onPartResult?.(parsed, this.ctx);
  }
  /**
   * Verdict: failed when any part failed, incomplete when one could not finish observing;
   * the caller (the gate) may judge by stricter rules and pass its verdict in.
   */
  async end(endedAt = Date.now(), judged?: { verdict: RunSummary['verdict']; reasons: string[] }): Promise<{ summary: RunSummary; files: string[] }> {
    const summary = runSummary.parse({
      ...this.start,
      verdict: judged?.verdict ?? (this.parts.some((p) => p.status === 'failed') ? 'failed' : this.parts.some((p) => p.status === 'incomplete') ? 'incomplete' : 'passed'),
      ...(judged?.reasons.length ? { verdictReasons: judged.reasons } : {}),
      durationMs: Math.max(0, endedAt - Date.parse(this.start.startedAt)),
      parts: this.parts,
    });
    const files: string[] = [];
    for (const r of this.reporters) files.push(...((await r.onRunEnd?.(summary, this.ctx)) ?? []));
    return { summary, files };
  }
}

/** Writes every report for a finished run (validated against the results schema). */
export async function writeReports(
  input: unknown,
  opts: { reportDir?: string; reporters?: readonly string[]; secrets?: Iterable<string> } = {},
): Promise<{ dir: string; files: string[]; summary: RunSummary }> {
  const summary = parseRunSummary(input);
  const ctx = createContext(opts.reportDir ?? DEFAULT_REPORT_DIR, summary.runId, opts.secrets);
  const reporters = createReporters(opts.reporters);
  const files: string[] = [];
  for (const r of reporters) await r.onRunStart?.({ runId: summary.runId, target: summary.target, profile: summary.profile, startedAt: summary.startedAt }, ctx);
  for (const p of summary.parts) for (const r of reporters) await r.onPartResult?.(p, ctx);
  for (const r of reporters) files.push(...((await r.onRunEnd?.(summary, ctx)) ?? []));
  return { dir: ctx.dir, files, summary };
}

export function parseRunSummary(input: unknown): RunSummary {
  const r = runSummary.safeParse(input);
  if (!r.success) {
    throw new Error(`invalid run summary: ${r.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return r.data;
}

export function readRunSummary(file: string): RunSummary {
  return parseRunSummary(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * The two files of one part written by a subcommand on its own (chaos validate/certify/schedule,
 * load): the results JSON and its JUnit XML, both through the one redactor and the one writer.
 */
export function writePartFiles(part: PartResult, dir: string, names: { json: string; junit: string }, secrets: Iterable<string> = []): { json: string; junit: string } {
  const parsed = partResult.parse(part);
  const ctx = dirContext(resolve(dir), [...secrets].filter(Boolean));
  const clean = ctx.redactor.value(parsed);
  const verdict = clean.status === 'incomplete' ? 'incomplete' : clean.status === 'failed' ? 'failed' : 'passed';
  const summary: RunSummary = { runId: clean.part, verdict, target: clean.target ?? '', profile: clean.profile ?? '', startedAt: clean.startedAt, durationMs: clean.durationMs, parts: [clean] };
  return { json: ctx.write(names.json, JSON.stringify(clean, null, 2) + '\n'), junit: ctx.write(names.junit, junitXml(summary)) };
}
