import { randomBytes } from 'node:crypto';
import type { Profile } from '../../contract/index.ts';
import { partResult, type PartResult, type RunSummary } from '../../kernel/results.ts';
import { ReportRun } from '../../reports/writers.ts';
import { formatDuration } from '../../reports/format.ts';
import { GATE_STEPS, unmetNeeds, type GateStep, type StepContext } from './steps.ts';
import type { GateTarget } from './target.ts';
import type { Progress } from './progress.ts';
import { judgeRun, type VerdictRules } from './verdict.ts';
import { writeFailuresFile, type ReplayMeta } from '../../reports/repro/failures-file.ts';

export function newRunId(d = new Date()): string {
  return `${d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(2).toString('hex')}`;
}

export interface GateOptions {
  target: GateTarget;
  profile: Profile;
  profileFile?: string;
  reportDir: string;
  progress: Progress;
  steps?: GateStep[];
  /** Credentials to mask in every report file, beyond the known prefixes. */
  secrets?: string[];
  runId?: string;
  /** A step that has not finished by then fails, and the gate goes on (default 20 min). */
  stepTimeoutMs?: number;
  /** Steps asked for by name and whether skips are accepted: see verdict.ts. */
  verdictRules?: VerdictRules;
  /** How the run was made, written into failures.json for `lendcheck replay` / `gate --rerun-failed`. */
  replay?: Partial<ReplayMeta>;
  /** Aborted on Ctrl-C (cli/gate/interrupt.ts): the steps not finished by then are reported interrupted. */
  signal?: AbortSignal;
}

export const DEFAULT_STEP_TIMEOUT_MS = 20 * 60_000;

export class StepTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(`${what} did not finish within ${formatDuration(ms)}`)), ms);
    timer.unref();
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function skippedPart(step: GateStep, reason: string, target: GateTarget, profile: Profile): PartResult {
  return { part: step.part, name: step.title, status: 'skipped', skipReason: reason, target: target.label, profile: profile.name, startedAt: new Date().toISOString(), durationMs: 0, checks: [], figures: {} };
}

function failedPart(step: GateStep, message: string, target: GateTarget, profile: Profile, startedAt: string, durationMs: number): PartResult {
  return {
    part: step.part,
    name: step.title,
    status: 'failed',
    skipReason: message,
    target: target.label,
    profile: profile.name,
    startedAt,
    durationMs,
    checks: [{ id: `${step.name}-ran`, title: `the ${step.name} part ran to completion`, requirements: [], status: 'failed', durationMs, message, notes: [] }],
    figures: {},
  };
}

/** A step the run was interrupted before it finished: not observed, so incomplete, never passed or failed. */
function interruptedPart(step: GateStep, target: GateTarget, profile: Profile, startedAt: string, durationMs: number): PartResult {
  return { part: step.part, name: step.title, status: 'incomplete', skipReason: 'interrupted (Ctrl-C) before this step finished', target: target.label, profile: profile.name, startedAt, durationMs, checks: [], figures: {} };
}

/** Runs the steps in order (those that share nothing with the others alongside them),
 *  feeding each result to the report writers in step order. */
export async function runGate(o: GateOptions): Promise<{ summary: RunSummary; files: string[]; dir: string; timedOut: string[]; interrupted: string[] }> {
  const interrupted: string[] = [];
  const aborted = o.signal ? new Promise<'aborted'>((done) => (o.signal!.aborted ? done('aborted') : o.signal!.addEventListener('abort', () => done('aborted'), { once: true }))) : undefined;
  const timedOut: string[] = [];
  const steps = o.steps ?? GATE_STEPS;
  const startedAt = new Date().toISOString();
  const report = new ReportRun(
    { runId: o.runId ?? newRunId(), target: o.target.label, profile: o.profile.name, startedAt },
    { reportDir: o.reportDir, secrets: o.secrets },
  );
  await report.begin();
  o.progress.start(o.target.label, o.profile.name, steps.map((s) => s.name));
  const judged: Array<{ step: string; part: PartResult }> = [];
  const ctxOf = (step: GateStep, log: (l: string) => void): StepContext => ({ profile: o.profile, profileFile: o.profileFile, target: o.target, runDir: report.ctx.dir, log });
  const runStep = async (step: GateStep, ctx: StepContext): Promise<PartResult> => {
    const s = new Date().toISOString();
    const t0 = performance.now();
    try {
      const raw = await withTimeout(step.run(ctx), o.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS, `the ${step.name} step`);
      const parsed = partResult.safeParse(raw);
      // A part may time only its last phase (the chaos schedule reports its validation);
      // the report's duration is the step's wall time whenever that is longer.
      return parsed.success
        ? { ...parsed.data, durationMs: Math.max(parsed.data.durationMs, Math.round(performance.now() - t0)) }
        : failedPart(step, `the part returned a result outside kernel/results.ts: ${parsed.error.issues.slice(0, 3).map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`, o.target, o.profile, s, performance.now() - t0);
    } catch (e) {
      if (e instanceof StepTimeout) timedOut.push(step.name);
      const msg = e instanceof StepTimeout ? e.message : `the part threw: ${(e as Error)?.stack?.split('\n').slice(0, 6).join('\n') ?? String(e)}`;
      return failedPart(step, msg, o.target, o.profile, s, Math.round(performance.now() - t0));
    }
  };
  // Steps that share nothing with the others start now and run meanwhile; their lines say whose they are.
  const early = new Map<GateStep, Promise<PartResult>>();
  for (const step of steps) {
    // After Ctrl-C the run's lines are written; a step still winding down says nothing more.
    const ctx = ctxOf(step, (l) => (o.signal?.aborted ? undefined : o.progress.log(`${step.name} (alongside): ${l}`)));
    if (!unmetNeeds(step, o.target) && step.alongside?.(ctx)) {
      o.progress.log(`${step.name}: started alongside the other steps (${step.title})`);
      early.set(step, runStep(step, ctx));
    }
  }
  let i = 0;
  for (const step of steps) {
    i++;
    o.progress.stepStart(i, steps.length, step.name, step.title);
    const unmet = unmetNeeds(step, o.target);
    const s = new Date().toISOString();
    const t0 = performance.now();
    let result: PartResult;
    if (unmet) result = skippedPart(step, unmet, o.target, o.profile);
    else {
      const running = o.signal?.aborted ? 'aborted' : (early.get(step) ?? runStep(step, ctxOf(step, (l) => o.progress.log(l))));
      const r = aborted && running !== 'aborted' ? await Promise.race([running, aborted]) : await running;
      if (r === 'aborted') interrupted.push(step.name);
      result = r === 'aborted' ? interruptedPart(step, o.target, o.profile, s, Math.round(performance.now() - t0)) : r;
    }
    await report.part(result);
    judged.push({ step: step.name, part: result });
    o.progress.stepEnd(i, steps.length, result);
  }
  const { summary, files } = await report.end(Date.now(), judgeRun(judged, o.verdictRules));
  files.push(writeFailuresFile(report.ctx, summary, o.replay));
  o.progress.end(summary, files.find((f) => f.endsWith('index.html')));
  return { summary, files, dir: report.ctx.dir, timedOut, interrupted };
}
