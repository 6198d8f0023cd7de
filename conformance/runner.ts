import { randomBytes } from 'node:crypto';
import { REQUIREMENTS, type Profile, type results } from '../contract/index.ts';
import { CheckFailure, CheckSkip, type Check, type CheckContext, type ProfileObservation } from './check.ts';
import { CheckRegistry, failed, failure, runCheck } from '../contract/check-kernel.ts';
import { skipReasonFor } from '../contract/needs.ts';
import { HttpClient, TransportError } from './http.ts';
import { allChecks } from './registry.ts';
import { ENV } from './target.ts';
import type { KeyTiers } from './checks/limits.ts';

type CheckResult = results.CheckResult;
type PartResult = results.PartResult;

// Runs checks in-process against one target. Both the Vitest suite (one `it` per check)
// and the mutant test use these pieces; only the outer loop differs.

export interface RunOptions {
  baseUrl: string;
  publicBaseUrl?: string;
  apiKey: string;
  apiKey2?: string;
  burstKey?: string;
  profile: Profile;
  strict?: boolean;
  readOnly?: boolean;
  only?: string[];
  seed?: number;
  checks?: Check[];
  /** Check ids run first, before the phase order (the mutant test puts likely killers here). */
  priority?: string[];
  /** Stop after the first failed check (the mutant test only needs one kill). */
  stopOnFirstFailure?: boolean;
  /** Tiers of the keys when known (the embedded sandbox's keys), so tier limits are checked exactly. */
  keyTiers?: KeyTiers;
  /** What the report calls the target; defaults to the base URL. */
  targetLabel?: string;
}

export interface ProfileChoiceRow extends ProfileObservation {
  check: string;
}

export interface Run {
  ctx: CheckContext;
  opts: RunOptions;
  plan: Array<{ check: Check; skip?: string }>;
  results: CheckResult[];
  choices: ProfileChoiceRow[];
  startedAt: string;
  t0: number;
  /** The check being run: where notes and profile observations go. */
  current: { id: string; notes: string[] };
  close(): Promise<void>;
}

const PHASES = ['early', 'main', 'late', 'final'] as const;

export function selectChecks(all: Check[], only?: string[]): Check[] {
  return new CheckRegistry<Check>(all).select(only);
}

export async function prepareRun(opts: RunOptions): Promise<Run> {
  // Later entries win on a shared value, so a key given twice is named by its first role.
  const keyVars = Object.fromEntries(([[opts.burstKey, ENV.burstKey], [opts.apiKey2, ENV.apiKey2], [opts.apiKey, ENV.apiKey]] as const).filter(([k]) => !!k)) as Record<string, string>;
  const http = new HttpClient({ baseUrl: opts.baseUrl, publicBaseUrl: opts.publicBaseUrl, secrets: [opts.apiKey, opts.apiKey2 ?? '', opts.burstKey ?? ''], keyVars });
  const runId = `lc${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const seed = opts.seed ?? (Date.now() % 2 ** 31);
  const run: Run = {
    opts,
    plan: [],
    results: [],
    choices: [],
    startedAt: new Date().toISOString(),
    t0: performance.now(),
    close: () => http.close(),
    current: { id: '', notes: [] },
    ctx: undefined as unknown as CheckContext,
  };
  const ctx: CheckContext = {
    profile: opts.profile,
    strict: !!opts.strict,
    readOnly: !!opts.readOnly,
    hasControls: false,
    http,
    key: opts.apiKey,
    key2: opts.apiKey2,
    burstKey: opts.burstKey,
    runId,
    seed,
    user: (tag) => `${runId}-${tag}`,
    api: (method, path, spec = {}) => {
      // The safety net of --read-only: nothing but reads leaves this process, whatever a check asks.
      if (opts.readOnly && method !== 'GET' && method !== 'HEAD') {
        return Promise.reject(new CheckSkip(`read-only run: this check needs ${method} ${path.split('?')[0]}, which could change state`));
      }
      return http.request({ key: spec.key === undefined ? opts.apiKey : spec.key, ...spec, method, path });
    },
    pub: (method, path, spec = {}) => http.request({ ...spec, key: spec.key ?? null, method, path, base: 'public' }),
    note: (text) => run.current.notes.push(text),
    profileChoice: (o, exchange) => {
      run.choices.push({ ...o, check: run.current.id });
      if (o.followed) return;
      const msg = `profile ${o.option}: expected ${o.expected} / received ${o.received ?? 'something else'}`;
      if (opts.strict) throw new CheckFailure(`deviation from profile option ${o.option} (--strict)`, o.expected, o.received ?? 'something else', exchange);
      run.current.notes.push(`${msg} (a note: the spec leaves this open; --strict makes it a failure)`);
    },
    shared: new Map(),
  };
  run.ctx = ctx;

  ctx.hasControls = await probeControls(ctx);
  const selected = selectChecks(opts.checks ?? allChecks(opts.profile, opts.keyTiers), opts.only);
  const first = (opts.priority ?? []).map((id) => selected.find((c) => c.id === id)).filter((c): c is Check => !!c);
  const rest = selected.filter((c) => !first.includes(c));
  const ordered = [...first, ...PHASES.flatMap((p) => rest.filter((c) => (c.phase ?? 'main') === p))];
  run.plan = ordered.map((check) => ({
    check,
    skip: skipReasonFor(check.needs ?? [], { sandboxControls: ctx.hasControls, secondKey: !!ctx.key2, burstKey: !!ctx.burstKey, readOnly: ctx.readOnly }),
  }));
  return run;
}

/** A target "has sandbox controls" when GET /sandbox/clock answers 200 with a key. */
async function probeControls(ctx: CheckContext): Promise<boolean> {
  if (ctx.readOnly) return false;
  try {
    const r = await ctx.api('GET', '/sandbox/clock');
    return r.status === 200 && typeof (r.json as { now?: unknown } | undefined)?.now === 'string';
  } catch {
    return false;
  }
}

/**
 * Below the suite's per-test timeout (conformance/suite/vitest.config.ts, 120 s): a check that
 * never comes to an outcome is a failure on record, not a Vitest timeout that the run's verdict
 * never hears of (it said PASSED over one once).
 */
export const CHECK_DEADLINE_MS = 110_000;

function withDeadline(check: Check, ms: number): Check {
  return {
    ...check,
    run: async (ctx) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckFailure(`the check comes to an outcome within ${ms / 1000} s`, `an outcome within ${ms / 1000} s`, `none after ${ms / 1000} s: the target's answers were too slow or never came`)), ms);
      });
      try {
        return await Promise.race([check.run(ctx), late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export async function executeCheck(run: Run, item: { check: Check; skip?: string }, deadlineMs = CHECK_DEADLINE_MS): Promise<CheckResult> {
  const check = withDeadline(item.check, deadlineMs);
  const current = { notes: [] as string[], id: check.id };
  run.current = current;
  const logStart = run.ctx.http.log.length;
  // A failure that names no exchange shows the last one the check made: the one that broke the rule.
  const lastExchange = () => (run.ctx.http.log.length > logStart ? run.ctx.http.log[run.ctx.http.log.length - 1] : undefined);
  const r = await runCheck(check, run.ctx, {
    skip: item.skip,
    notes: current.notes,
    lastExchange,
    exchanges: () => run.ctx.http.log.slice(logStart),
    classify: (e) => (e instanceof TransportError ? failed(failure('transport', 'an HTTP answer', e.message, e.exchange)) : undefined),
  });
  run.results.push(r);
  return r;
}

export function coverage(checks: CheckResult[]): results.PartResult['coverage'] {
  return REQUIREMENTS.map((q) => {
    const citing = checks.filter((c) => c.requirements.includes(q.id));
    const result = !citing.length
      ? ('uncovered' as const)
      : citing.some((c) => c.status === 'failed')
        ? ('failed' as const)
        : citing.some((c) => c.status === 'passed')
          ? ('passed' as const)
          : ('skipped' as const);
    return { requirement: q.id, checks: citing.map((c) => c.id), result };
  });
}

export interface ConformanceResult extends PartResult {
  /** Profile options the target was seen to follow (or not), check by check. */
  profileChoices: ProfileChoiceRow[];
}

export function finishRun(run: Run): ConformanceResult {
  const checks = run.results;
  const failed = checks.filter((c) => c.status === 'failed').length;
  const passed = checks.filter((c) => c.status === 'passed').length;
  const skipped = checks.filter((c) => c.status === 'skipped').length;
  return {
    part: 'conformance',
    name: 'conformance',
    status: failed ? 'failed' : passed ? 'passed' : 'skipped',
    ...(failed || passed ? {} : { skipReason: 'no check applied to this target' }),
    target: run.opts.targetLabel ?? run.opts.baseUrl,
    profile: run.opts.profile.name,
    startedAt: run.startedAt,
    durationMs: Math.round(performance.now() - run.t0),
    checks,
    coverage: coverage(checks),
    figures: {
      checks: checks.length,
      passed,
      failed,
      skipped,
      requests: run.ctx.http.log.length,
      sandboxControls: run.ctx.hasControls ? 'yes' : 'no',
      strict: run.ctx.strict ? 'yes' : 'no',
      seed: run.ctx.seed,
    },
    profileChoices: run.choices,
  };
}

/** The whole run in one call (mutant test, bench, and runConformance's in-process mode). */
export async function runChecks(opts: RunOptions): Promise<ConformanceResult> {
  const run = await prepareRun(opts);
  try {
    for (const item of run.plan) {
      const r = await executeCheck(run, item);
      if (r.status === 'failed' && opts.stopOnFirstFailure) break;
    }
    return finishRun(run);
  } finally {
    await run.close();
  }
}
