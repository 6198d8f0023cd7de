import { randomBytes } from 'node:crypto';
import { endpoints, NoSuchEndpoint, REQUIREMENTS, UnknownOption, type Profile } from '../contract/index.ts';
import * as results from '../kernel/results.ts';
import { partStatus } from '../kernel/part-status.ts';
import { CheckFailure, CheckSkip, evidenceOf, type Check, type CheckContext, type ProfileObservation } from './check.ts';
import { CheckRegistry, failed, failure, runCheck, skip } from '../kernel/check-kernel.ts';
import { skipKindFor, skipReasonFor, type Capabilities } from '../kernel/needs.ts';
import { HttpClient, TransportError, type Reply, type RequestSpec } from './http.ts';
import { callSpec, type Call } from './call.ts';
import { AnswerRules } from './answer-rules.ts';
import { allChecks } from './registry.ts';
import { unboundFailureNote } from './requirement-binding.ts';
import { ENV } from './target.ts';
import type { KeyTiers } from './checks/limits.ts';
import { RequestBudget } from './budget/budget.ts';
import { capSkip, planChecks, planCost, planNamed, type PlanName } from './plans.ts';
import { expectedRequests } from './budget/costs.ts';
import type { TierName } from '../contract/index.ts';

type CheckResult = results.CheckResult;
type PartResult = results.PartResult;

// Runs checks in-process against one target. Both the Vitest suite (one `it` per check)
// and the mutant test use these pieces; only the outer loop differs.

export interface RunOptions {
  baseUrl: string;
  publicBaseUrl?: string;
  apiKey: string;
  /** More keys of partner 1 (beyond apiKey): the budget spreads the suite over all of them. */
  moreApiKeys?: string[];
  /** Longest wait for rate-limit room, per wait (--max-wait); a check still without room skips, saying so. */
  maxWaitMs?: number;
  /** Where the budget says its waits and the run its expected cost (stderr by default). */
  say?: (line: string) => void;
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
  /** The run plan (conformance/plans.ts): `full` (every check) unless named. */
  plan?: PlanName;
}

export interface ProfileChoiceRow extends ProfileObservation {
  check: string;
}

export interface Run {
  ctx: CheckContext;
  opts: RunOptions;
  plan: Array<{ check: Check; skip?: string; skipKind?: results.SkipKind }>;
  results: CheckResult[];
  choices: ProfileChoiceRow[];
  startedAt: string;
  t0: number;
  /** The check being run: where notes and profile observations go. */
  current: { id: string; notes: string[]; advisories: results.Advisory[] };
  /** Set by ctx.stopRun: why every check still to come is skipped. */
  stopped?: string;
  /** Checks the plan left out, by id (none for the full plan). */
  leftOut: string[];
  close(): Promise<void>;
}

const PHASES = ['early', 'main', 'late', 'final'] as const;

export function selectChecks(all: Check[], only?: string[]): Check[] {
  return new CheckRegistry<Check>(all).select(only);
}

export async function prepareRun(opts: RunOptions): Promise<Run> {
  // Later entries win on a shared value, so a key given twice is named by its first role.
  const more = (opts.moreApiKeys ?? []).filter((k) => k && k !== opts.apiKey);
  const keyVars = Object.fromEntries(
    ([...more.map((k, i) => [k, `${ENV.apiKey}#${i + 2}`]), [opts.burstKey, ENV.burstKey], [opts.apiKey2, ENV.apiKey2], [opts.apiKey, ENV.apiKey]] as Array<[string | undefined, string]>).filter(([k]) => !!k),
  ) as Record<string, string>;
  const tierOf = (k: string): TierName | undefined => (k === opts.apiKey ? opts.keyTiers?.key : k === opts.apiKey2 ? opts.keyTiers?.key2 : k === opts.burstKey ? opts.keyTiers?.burstKey : undefined) as TierName | undefined;
  const say = opts.say ?? ((line: string) => process.stderr.write(`lendcheck: ${line}\n`));
  const budget = new RequestBudget({
    profile: opts.profile,
    maxWaitMs: opts.maxWaitMs,
    tiers: Object.fromEntries(Object.keys(keyVars).map((k) => [k, tierOf(k)])),
    label: (b) => keyVars[b] ?? 'the public limit (requests without a key)',
    say,
  });
  const http = new HttpClient({ baseUrl: opts.baseUrl, publicBaseUrl: opts.publicBaseUrl, secrets: [opts.apiKey, opts.apiKey2 ?? '', opts.burstKey ?? '', ...more], keyVars, budget });
  const keys = [opts.apiKey, ...more];
  const runId = `lc${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const seed = opts.seed ?? (Date.now() % 2 ** 31);
  // Each answer to an endpoint called by its name is judged as it arrives, by the check that sent it.
  const answers = new AnswerRules(opts.profile);
  http.onReply((r) => answers.judge(r, run.current.id));
  const send = (spec: RequestSpec): Promise<Reply> => {
    // The safety net of --read-only: nothing but reads leaves this process, whatever a check asks.
    if (opts.readOnly && spec.method !== 'GET' && spec.method !== 'HEAD') {
      return Promise.reject(new CheckSkip(`read-only run: this check needs ${spec.method} ${spec.path.split('?')[0]}, which could change state`, 'run-lacks'));
    }
    // Any key of partner 1 serves a request that names none: the one whose bucket has room soonest.
    return http.request({ ...spec, key: spec.key === undefined ? (keys.length > 1 ? budget.soonest(keys, 1) : opts.apiKey) : spec.key });
  };
  const run: Run = {
    opts,
    plan: [],
    leftOut: [],
    results: [],
    choices: [],
    startedAt: new Date().toISOString(),
    t0: performance.now(),
    close: () => http.close(),
    current: { id: '', notes: [], advisories: [] },
    ctx: undefined as unknown as CheckContext,
  };
  const ctx: CheckContext = {
    profile: opts.profile,
    strict: !!opts.strict,
    readOnly: !!opts.readOnly,
    hasControls: false,
    http,
    key: opts.apiKey,
    keys,
    key2: opts.apiKey2,
    burstKey: opts.burstKey,
    storm: planNamed(opts.plan).storm,
    runId,
    seed,
    user: (tag) => `${runId}-${tag}`,
    api: (method, path, spec = {}) => send({ ...spec, method, path }),
    call: (id, ...input) => {
      let spec: RequestSpec;
      try {
        spec = callSpec(opts.profile, id, (input[0] ?? {}) as Call<typeof id>);
      } catch (e) {
        if (e instanceof NoSuchEndpoint) return Promise.reject(new CheckSkip(`this check calls ${id}: ${e.message}`, 'not-observed'));
        throw e;
      }
      return send(spec);
    },
    room: async (need, what) => {
      const n1 = need[1] ?? 0;
      const n2 = need[2] ?? 0;
      const key = n1 ? budget.soonest(keys, n1) : opts.apiKey;
      const taken: string[] = [];
      try {
        if (n1) {
          await budget.reserve(key, n1, what);
          taken.push(key);
        }
        if (n2 && opts.apiKey2) {
          await budget.reserve(opts.apiKey2, n2, what);
          taken.push(opts.apiKey2);
        }
      } catch (e) {
        for (const k of taken) budget.release(k);
        throw e;
      }
      return { key, done: () => taken.forEach((k) => budget.release(k)) };
    },
    pub: (method, path, spec = {}) => http.request({ ...spec, key: spec.key ?? null, method, path, base: 'public' }),
    note: (text) => run.current.notes.push(text),
    profileChoice: (o, exchange) => {
      run.choices.push({ ...o, check: run.current.id });
      if (o.followed) return;
      const msg = `profile ${o.option}: expected ${o.expected} / received ${o.received ?? 'something else'}`;
      if (opts.strict) throw new CheckFailure(`deviation from profile option ${o.option} (--strict)`, o.expected, o.received ?? 'something else', exchange);
      run.current.notes.push(`${msg} (a note: the spec leaves this open; --strict makes it a failure)`);
      // A deviation from the profile where the spec is silent (an unusual code, another 2xx) is advice too: on the console and in the report.
      run.current.advisories.push({ expected: `${o.expected}, as the profile says (${o.option}; the spec leaves it open)`, received: o.received ?? 'something else', profile: o.option, ...(exchange ? { evidence: evidenceOf(exchange) } : {}) });
    },
    // Advice takes profileChoice's road: recorded beside the notes, a failure only under --strict.
    advise: (a, exchange) => {
      if (opts.strict) throw new CheckFailure(`advice taken as a rule (--strict)${a.requirement ? `: ${a.requirement}` : a.profile ? `: profile ${a.profile}` : ''}`, a.expected, a.received, exchange);
      run.current.advisories.push({ ...a, ...(exchange ? { evidence: evidenceOf(exchange) } : {}) });
    },
    answers,
    shared: new Map(),
    stopRun: (reason) => {
      run.stopped ??= reason;
    },
  };
  run.ctx = ctx;

  ctx.hasControls = planNamed(opts.plan).controls === false ? false : await probeControls(ctx);
  const planned = planChecks(planNamed(opts.plan), opts.checks ?? allChecks(opts.profile, opts.keyTiers));
  run.leftOut = planned.leftOut.map((c) => c.id);
  const selected = selectChecks(planned.run, opts.only);
  const first = (opts.priority ?? []).map((id) => selected.find((c) => c.id === id)).filter((c): c is Check => !!c);
  const rest = selected.filter((c) => !first.includes(c));
  const ordered = [...first, ...PHASES.flatMap((p) => rest.filter((c) => (c.phase ?? 'main') === p))];
  const have: Capabilities = { sandboxControls: ctx.hasControls, secondKey: !!ctx.key2, burstKey: !!ctx.burstKey, readOnly: ctx.readOnly };
  run.plan = ordered.map((check) => ({ check, skip: skipReasonFor(check.needs ?? [], have), skipKind: skipKindFor(check.needs ?? [], have) }));
  say(costLine(run, budget, keys));
  return run;
}

/** What the run will cost, said before it starts: its requests, and the waiting the key's rate limit adds. */
function costLine(run: Run, budget: RequestBudget, keys: string[]): string {
  const ids = run.plan.filter((p) => !p.skip).map((p) => p.check.id);
  const n = planCost(planNamed(run.opts.plan), ids) ?? expectedRequests(ids);
  const s = Math.ceil(budget.secondsFor(keys, n));
  const on = keys.length > 1 ? `over ${keys.length} keys, each ${budget.describe(keys[0]!)}` : `at this key's ${budget.describe(keys[0]!)}`;
  return `about ${n} requests; ${on}: ${s ? `about ${s} s of waiting for the rate limit` : 'no waiting for the rate limit expected'} (--max-wait ${Math.round(budget.maxWaitMs / 1000)} s per wait)`;
}

/** A target "has sandbox controls" when GET /sandbox/clock answers 200 with a key. */
async function probeControls(ctx: CheckContext): Promise<boolean> {
  if (ctx.readOnly) return false;
  try {
    const r = await ctx.call('sandbox.clock');
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

function withDeadline(check: Check, ms: number, paused: () => number = () => 0): Check {
  return {
    ...check,
    run: async (ctx) => {
      let timer: NodeJS.Timeout | undefined;
      // Time spent waiting for rate-limit room is the budget's (bounded by --max-wait), not the check's.
      const t0 = performance.now();
      const p0 = paused();
      const late = new Promise<never>((_, reject) => {
        const arm = () => {
          const left = t0 + ms + (paused() - p0) - performance.now();
          if (left > 0) timer = setTimeout(arm, left);
          else reject(new CheckFailure(`the check comes to an outcome within ${ms / 1000} s`, `an outcome within ${ms / 1000} s`, `none after ${ms / 1000} s: the target's answers were too slow or never came`));
        };
        timer = setTimeout(arm, ms);
      });
      try {
        return await Promise.race([check.run(ctx), late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export async function executeCheck(run: Run, item: { check: Check; skip?: string; skipKind?: results.SkipKind }, deadlineMs = CHECK_DEADLINE_MS): Promise<CheckResult> {
  const budget = run.ctx.http.budget;
  const check = withDeadline(item.check, deadlineMs, budget ? () => budget.pausedNow() : undefined);
  const current = { notes: [] as string[], advisories: [] as results.Advisory[], id: check.id };
  run.current = current;
  const logStart = run.ctx.http.log.length;
  const overspentStart = budget?.overspent.length ?? 0;
  // A failure that names no exchange shows the last one the check made: the one that broke the rule.
  const lastExchange = () => (run.ctx.http.log.length > logStart ? run.ctx.http.log[run.ctx.http.log.length - 1] : undefined);
  const stopped = run.stopped ? `not run: ${run.stopped}` : capSkip(planNamed(run.opts.plan), check.id, run.ctx.http.log.length);
  const r = await runCheck(check, run.ctx, {
    skip: stopped ?? item.skip,
    skipKind: run.stopped ? 'not-observed' : stopped ? 'unaffordable' : item.skipKind,
    notes: current.notes,
    advisories: current.advisories,
    lastExchange,
    exchanges: () => run.ctx.http.log.slice(logStart),
    // An option the profile records as unknown (contract/unknown-option.ts): a skip naming it, never a guess.
    classify: (e) => (e instanceof TransportError ? failed(failure('transport', 'an HTTP answer', e.message, e.exchange)) : e instanceof UnknownOption ? skip(e.message) : undefined),
  });
  const made = run.ctx.http.log.slice(logStart);
  const over = budget?.overspent.slice(overspentStart) ?? [];
  // lendcheck's own defect, said where it happened: the budget let through more than the bucket held.
  const noted = over.length ? { ...r, notes: [...r.notes, `lendcheck overspent the rate limit: ${over.length} paced request(s) met a 429: ${over.slice(0, 3).join('; ')}`] } : r;
  // A failure on an endpoint none of the check's sentences binds says so (issue 47): the rule broken is that endpoint's.
  const unbound = noted.status === 'failed' ? unboundFailureNote(item.check, noted.exchange, endpoints(run.opts.profile)) : undefined;
  const cited = unbound ? { ...noted, notes: [...noted.notes, unbound] } : noted;
  const out = { ...withEvidence(item.check, cited, made, run.ctx.http.log), requests: made.length };
  run.results.push(out);
  return out;
}

/**
 * No pass without evidence: a check passes only with an answered request behind it, its own, or
 * for a check that judges what the whole run recorded, one in the run, or the exchange its pass
 * names (a delivery the target made). A pass on nothing (a
 * storm that no one answered, "no 500 seen" in no answers) becomes a skip that says so.
 */
export function withEvidence(check: Check, r: CheckResult, own: results.Exchange[], all: results.Exchange[]): CheckResult {
  if (r.status !== 'passed') return r;
  // A pass that names what it saw (a webhook delivery the target made, judged from a scenario another check ran) has its evidence.
  if (r.exchange && r.exchange.status !== null) return r;
  const pool = check.judgesRun ? all : own;
  const answered = pool.filter((x) => x.status !== null).length;
  if (answered) return r;
  const where = check.judgesRun ? 'in the whole run' : 'by this check';
  return { ...r, status: 'skipped', skipKind: 'not-observed', message: `no verdict without evidence: ${pool.length ? `none of the ${pool.length} requests made ${where} was answered` : `no request was made ${where}`}, so nothing was seen to pass` };
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
  /** The checks the run's plan left out, by id (absent for the full plan). */
  leftOut?: string[];
}


export function finishRun(run: Run): ConformanceResult {
  const checks = run.results;
  const failed = checks.filter((c) => c.status === 'failed').length;
  const passed = checks.filter((c) => c.status === 'passed').length;
  const skipped = checks.filter((c) => c.status === 'skipped').length;
  const unaffordable = checks.filter((c) => c.status === 'skipped' && c.skipKind === 'unaffordable').length;
  return {
    part: 'conformance',
    name: 'conformance',
    ...partStatus(checks),
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
      skippedUnaffordable: unaffordable,
      // Advice never fails a check: counted, shown, and left out of the verdict.
      advisories: checks.reduce((n, c) => n + (c.advisories?.length ?? 0), 0),
      requests: run.ctx.http.log.length,
      plan: planNamed(run.opts.plan).name,
      ...(run.leftOut.length ? { leftOut: run.leftOut.length } : {}),
      ...(run.ctx.http.budget
        ? {
            rateLimitWaitS: Math.round(run.ctx.http.budget.figures.waitedMs / 100) / 10,
            // 429s on requests the budget paced: lendcheck overspent (a harness defect, reported, never a skip reason).
            overspent429: run.ctx.http.budget.figures.overspent429,
          }
        : {}),
      sandboxControls: run.ctx.hasControls ? 'yes' : 'no',
      strict: run.ctx.strict ? 'yes' : 'no',
      seed: run.ctx.seed,
    },
    profileChoices: run.choices,
    ...(run.leftOut.length ? { leftOut: run.leftOut } : {}),
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
