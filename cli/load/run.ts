// `runLoad`: runs one scenario on the pinned k6 (one process or N execution segments),
// then reads every segment's raw samples to judge the thresholds on the whole run, build
// the per-second accepted/rejected series for the report, and write the summary, the
// JUnit file and the dashboard export into the report dir.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEY_PREFIX, TIERS, TIER_NAMES, defaultProfile, type Profile } from '../../contract/index.ts';
import type { CheckResult, PartResult } from '../../kernel/results.ts';
import type { SandboxOptions } from '../../sandbox/app.ts';
import { scenarioEnv, SCENARIOS, type ScenarioName } from './env.ts';
import { inspectOptions, k6Binary, plannedSeconds, redact, runK6, segmentFiles, type K6Run } from './k6-process.ts';
import { writePartFiles } from '../../reports/writers.ts';
import { latencyDistributions } from './distributions.ts';
import { aggregate, emptySet, perSecond, readK6Json, type SampleSet } from './samples.ts';
import { evaluate, parseSelector, type ThresholdVerdict } from './thresholds.ts';
import { applyPreconditions, type Judged } from './preconditions.ts';
import { partStatus } from '../../kernel/part-status.ts';
import { externalTarget, startEmbeddedSandbox, type Target } from './target.ts';
import { DEFAULT_KEYS } from '../../sandbox/auth/keys.ts';
import { watchMatches, type MatchBy, type MatchWatch } from './match-watch.ts';
import { matchingFigures } from './matching-figures.ts';
import { checkPoolBudget, mintPool, onePerPartner, poolEnv, type PoolKey } from './pool.ts';
import { auditAfterLoad, type AuditResult } from './audit/audit.ts';
import { limiterPathNotKeyed, limiterSkipped } from './limiter-path.ts';
import { collateralSkipped, unknownCollateralReason } from './unknown-collateral.ts';

export interface LoadOptions {
  scenario: ScenarioName;
  tier?: string;
  publicMode?: boolean;
  baseUrl?: string;
  apiKey?: string;
  smoke?: boolean;
  reportDir?: string;
  /** Passed through as `--out` (Prometheus remote write, JSON, …). */
  outs?: string[];
  segments?: number;
  allowProduction?: boolean;
  profile?: Profile;
  /** Extra scenario env (tolerances, SUSTAIN_SECONDS, TARGET_FRACTION, …). */
  env?: Record<string, string>;
  /** Options of the embedded sandbox, e.g. plugins that give a key other limits. */
  sandbox?: SandboxOptions;
  /** Streams k6's output to stderr (--verbose). */
  echo?: boolean;
  /** One line per phase (the quiet default of `lendcheck load`). */
  phase?: (line: string) => void;
  /** matching: orders spread over these keys (--keys FILE / LENDCHECK_KEYS). */
  pool?: PoolKey[];
  /** matching, embedded sandbox: mint a pool of N test keys over M partners for the run. */
  keyPool?: { keys: number; partners: number };
  /** matching: how time-to-match is measured (default auto: webhooks when the target can reach the receiver). */
  matchBy?: MatchBy;
}

// k6 runs the scenarios as TypeScript itself. In the package they are shipped, with the
// contract files they import, under dist/k6/ (scripts/build.mjs), out of the way of the .d.ts.
export const SCENARIO_DIR = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../scenarios/' : '../../k6/scenarios/', import.meta.url));
const EXIT_THRESHOLDS = 99; // k6's exit code when a threshold is crossed

export function scenarioScript(name: ScenarioName): string {
  return join(SCENARIO_DIR, `${name}.ts`);
}

export function refuseLiveKey(apiKey: string | undefined, allowProduction: boolean | undefined): void {
  if (apiKey?.startsWith(KEY_PREFIX.production) && !allowProduction) {
    throw new Error(`refusing a ${KEY_PREFIX.production} key: load against production needs --allow-production`);
  }
}

/** Business time runs faster in the embedded sandbox where it matters (matching, maturities). */
const TIME_SCALE: Record<ScenarioName, number> = { 'rate-limit': 1, matching: 60, mixed: 60 };

export async function runLoad(opts: LoadOptions): Promise<PartResult> {
  if (!SCENARIOS.includes(opts.scenario)) throw new Error(`--scenario: expected one of ${SCENARIOS.join(', ')} / received "${opts.scenario}"`);
  const profile = opts.profile ?? defaultProfile;
  const tier = opts.tier ?? profile.limits.defaultTier;
  if (!TIER_NAMES.includes(tier as never) && !(opts.env?.TIER_PER_MINUTE && opts.env?.TIER_BURST)) {
    throw new Error(`--tier: expected one of ${TIER_NAMES.join(', ')} / received "${tier}"`);
  }
  refuseLiveKey(opts.apiKey, opts.allowProduction);
  for (const k of opts.pool ?? []) refuseLiveKey(k.key, opts.allowProduction);
  if ((opts.pool || opts.keyPool) && opts.scenario !== 'matching') throw new Error(`--keys/--key-pool: a key pool is for --scenario matching / received --scenario ${opts.scenario}`);
  if (opts.keyPool && opts.baseUrl) throw new Error('--key-pool: mints keys in the embedded sandbox only; give another target its keys with --keys FILE');
  const pool = opts.pool ?? (opts.keyPool ? mintPool(opts.keyPool.keys, opts.keyPool.partners) : undefined);
  const segments = Math.max(1, Math.floor(opts.segments ?? 1));
  const startedAt = new Date();
  const t0 = performance.now();
  const runId = `${opts.scenario}-${startedAt.toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${process.pid}`;
  const reportDir = resolve(opts.reportDir ?? join('lendcheck-reports', `load-${runId}`));
  mkdirSync(reportDir, { recursive: true });

  let target: Target;
  if (opts.baseUrl) {
    if (!opts.apiKey && !opts.publicMode && !pool) throw new Error('--api-key: a key is needed for --base-url (or run --public)');
    target = externalTarget(opts.baseUrl);
  } else {
    // Response validation is the conformance suite's job; here it would only slow the target.
    target = await startEmbeddedSandbox({
      profile,
      timeScale: TIME_SCALE[opts.scenario],
      validateResponses: false,
      // Orders meet each other here, not the built-in counterparty: matching measures
      // crossing orders, and the mix's resting lends must stay cancellable.
      ...(opts.scenario !== 'rate-limit' ? { liquidity: { enabled: false, delaySeconds: 5 } } : {}),
      ...opts.sandbox,
      ...(pool ? { keys: [...(opts.sandbox?.keys ?? DEFAULT_KEYS), ...pool] } : {}),
    });
  }
  const apiKey = opts.apiKey ?? pool?.[0].key ?? `${KEY_PREFIX.sandbox}partner_a_${tier}`;
  const secrets = [apiKey, ...(pool ?? []).map((k) => k.key)];
  let watch: MatchWatch | undefined;
  try {
    // The tier's bucket is measured only through a path refused without a key (limiter-path.ts).
    if (opts.scenario === 'rate-limit' && !opts.publicMode) {
      const why = await limiterPathNotKeyed(target.baseUrl, profile, apiKey);
      if (why) {
        const skipped = limiterSkipped(`${opts.scenario} (${tier})${opts.smoke ? ' smoke' : ''}`, why, target.embedded ? 'embedded sandbox' : target.baseUrl, profile, startedAt);
        writePartFiles(skipped, reportDir, { json: 'result.json', junit: 'junit.xml' }, secrets);
        return skipped;
      }
    }
    const unknownPledge = unknownCollateralReason(opts.scenario, profile);
    if (unknownPledge) {
      const skipped = collateralSkipped(`${opts.scenario} (${tier})${opts.smoke ? ' smoke' : ''}`, unknownPledge, target.embedded ? 'embedded sandbox' : target.baseUrl, profile, startedAt);
      writePartFiles(skipped, reportDir, { json: 'result.json', junit: 'junit.xml' }, secrets);
      return skipped;
    }
    if (opts.scenario === 'matching') {
      watch = await watchMatches({ baseUrl: target.baseUrl, partnerKeys: pool ? onePerPartner(pool).map((k) => k.key) : [apiKey], profile, matchBy: opts.matchBy ?? 'auto' });
      if (watch.mode === 'webhooks') secrets.push(watch.secret);
      else if (opts.echo || opts.phase) (opts.phase ?? ((l: string) => console.error(`lendcheck load: ${l}`)))(`time-to-match by polling: ${watch.reason}`);
    }
    const k6 = k6Binary();
    const script = scenarioScript(opts.scenario);
    const env: Record<string, string> = {
      ...scenarioEnv(profile, { scenario: opts.scenario, tier, publicMode: !!opts.publicMode, smoke: !!opts.smoke, baseUrl: target.baseUrl, runId }),
      SUSTAIN_SECONDS: opts.smoke ? '6' : '60',
      ...(watch?.mode === 'webhooks' ? { RECEIVER_URL: watch.receiverUrl } : {}),
      ...(pool ? poolEnv(pool) : {}),
      ...opts.env,
    };
    if (pool && opts.scenario === 'matching') planBudget(pool, env, watch?.mode === 'webhooks');
    const inspected = inspectOptions(k6.path, script, env);
    const timeoutMs = (plannedSeconds(inspected) + 60) * 1000;
    opts.phase?.(`k6 ${k6.version}: ${opts.scenario}${opts.smoke ? ' smoke' : ''} against ${target.embedded ? 'the embedded sandbox' : target.baseUrl}, about ${plannedSeconds(inspected)} s${segments > 1 ? ` over ${segments} processes` : ''}${opts.echo ? '' : " (k6's progress with --verbose)"}`);
    const runs: K6Run[] = await Promise.all(
      Array.from({ length: segments }, (_, index) =>
        runK6({
          k6: k6.path,
          script,
          // Segments see a share of every counter, so their own thresholds mean nothing: judged merged below.
          env: { ...env, API_KEY: apiKey },
          extraArgs: segments > 1 ? ['--no-thresholds'] : [],
          outs: opts.outs ?? [],
          files: segmentFiles(reportDir, index, segments),
          index,
          count: segments,
          timeoutMs,
          echo: !!opts.echo,
          secrets,
        }),
      ),
    );
    runs.forEach((r, i) => writeFileSync(segmentFiles(reportDir, i, segments).log, r.output));

    opts.phase?.(`k6 ended (exit ${runs.map((r) => r.exitCode).join(', ')}); judging its samples`);
    const set = emptySet();
    for (const r of runs) await readK6Json(r.files.samples, set);
    const verdicts = judge(inspected.thresholds ?? {}, set);
    const judged = applyPreconditions(verdicts);
    const k6Failed = runs.filter((r) => r.exitCode !== 0 && r.exitCode !== EXIT_THRESHOLDS);
    const thresholdsOk = verdicts.every((v) => v.ok);
    // A crossed precondition (preconditions.ts) is no failure: lendcheck's judgement without it.
    const judgedOk = judged.every((j) => j.notJudged !== undefined || j.verdict.ok);
    const preconditionCrossed = judged.some((j) => j.notJudged !== undefined && !j.verdict.ok);
    // One process: k6's own exit code is the verdict, unless only not-judged thresholds crossed. Segments: the merged judgement.
    const k6Verdict = segments === 1 && !preconditionCrossed ? runs[0].exitCode === 0 : judgedOk;
    // The scenarios that write end with the ledger audit of every user they touched.
    let audit: AuditResult | undefined;
    if (opts.scenario !== 'rate-limit' && !opts.publicMode) {
      opts.phase?.('ledger audit of the users the run touched');
      audit = await auditAfterLoad({ baseUrl: target.baseUrl, keys: pool ? pool.map((k) => k.key) : [apiKey], acks: set.samples.get('ledger_acks') ?? [], profile, runId, scenario: opts.scenario });
    }
    const passed = k6Failed.length === 0 && k6Verdict && audit?.check.status !== 'failed';

    const checks = [...thresholdChecks(opts, tier, judged), ...k6Checks(opts.scenario, set), ...(audit ? [audit.check] : [])];
    if (k6Failed.length) {
      checks.push({
        id: `load.${opts.scenario}.k6:process`,
        title: 'k6 ran to completion',
        requirements: [],
        status: 'failed',
        durationMs: 0,
        message: `expected exit 0 or ${EXIT_THRESHOLDS} / received ${k6Failed.map((r) => r.exitCode).join(', ')}: ${redact(k6Failed[0].output.trim().split('\n').slice(-3).join(' | '), secrets)}`,
        notes: [],
      });
    }
    const notes: string[] = [];
    if (segments === 1 && (runs[0].exitCode === 0) !== thresholdsOk) {
      notes.push(`k6 exit ${runs[0].exitCode} and lendcheck's re-judgement (${thresholdsOk ? 'pass' : 'fail'}) disagree`);
    }

    const figures = figuresOf(opts, tier, profile, set, env);
    if (opts.scenario === 'matching') Object.assign(figures, matchingFigures(set, { watch, pool, env }));
    figures.k6Version = k6.version;
    figures.segments = segments;
    figures.k6ExitCode = segments === 1 ? runs[0].exitCode : thresholdsOk ? 0 : EXIT_THRESHOLDS;
    if (audit) Object.assign(figures, audit.figures);
    if (notes.length) figures.note = notes.join('; ');

    if (segments > 1) writeMergedSummary(join(reportDir, 'k6-summary.json'), verdicts, set, inspected.thresholds ?? {});
    const result: PartResult = {
      part: 'load',
      name: `${opts.scenario}${opts.publicMode ? ' (public)' : pool ? ` (pool of ${pool.length} keys)` : ` (${tier})`}${opts.smoke ? ' smoke' : ''}`,
      // A threshold not judged (preconditions.ts) leaves a passing run INCOMPLETE.
      ...(passed ? partStatus(checks, 'the measurement could not be taken as planned (see the skipped thresholds)') : { status: 'failed' as const }),
      target: target.embedded ? 'embedded sandbox' : target.baseUrl,
      profile: profile.name,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - t0),
      checks,
      series: [seriesOf(opts, tier, profile, set)],
      figures,
    };
    writePartFiles(result, reportDir, { json: 'result.json', junit: 'junit.xml' }, secrets);
    return result;
  } finally {
    await watch?.close();
    await target.close();
  }
}

/**
 * The offered keyed requests per second, checked against the pool before k6 starts: two
 * sides of ORDERS_PER_SECOND, and with polling at least one poll per order on top.
 */
function planBudget(pool: PoolKey[], env: Record<string, string>, webhooks: boolean): void {
  if (!env.ORDERS_PER_SECOND) return; // the scenario's default takes 45 % of the pool's budget
  const perSide = Number(env.ORDERS_PER_SECOND);
  if (!(perSide > 0)) throw new Error(`ORDERS_PER_SECOND: expected a positive number / received "${env.ORDERS_PER_SECOND}"`);
  const custom = env.TIER_PER_MINUTE ? { perMinute: Number(env.TIER_PER_MINUTE) } : undefined;
  checkPoolBudget(pool, 2 * perSide * (webhooks ? 1 : 2), custom);
}

type ThresholdMap = Record<string, Array<string | { threshold: string }>>;

export function judge(thresholds: ThresholdMap, set: SampleSet): ThresholdVerdict[] {
  const out: ThresholdVerdict[] = [];
  for (const [key, list] of Object.entries(thresholds)) {
    const agg = aggregate(set, parseSelector(key));
    for (const t of list) out.push(evaluate(key, typeof t === 'string' ? t : t.threshold, agg));
  }
  return out;
}

function requirementsOf(opts: LoadOptions, tier: string, metric: string): string[] {
  if (opts.scenario !== 'rate-limit') return [];
  const base = opts.publicMode ? 'LIMIT-public' : `LIMIT-tier-${tier}`;
  if (metric.startsWith('well_formed_429')) return ['LIMIT-429'];
  if (metric.startsWith('header_violations')) return ['LIMIT-headers'];
  return [base];
}

function thresholdChecks(opts: LoadOptions, tier: string, judged: Judged[]): CheckResult[] {
  return judged.map(({ verdict: v, notJudged }) => ({
    id: `load.${opts.scenario}.threshold:${v.metric} ${v.expression}`,
    title: `threshold ${v.metric}: ${v.expression}`,
    requirements: requirementsOf(opts, tier, v.metric),
    durationMs: 0,
    // Not judged: lendcheck could not take the measurement as planned (the part is INCOMPLETE).
    ...(notJudged !== undefined ? { status: 'skipped' as const, message: notJudged, skipKind: 'unaffordable' as const } : { status: v.ok ? ('passed' as const) : ('failed' as const), message: v.message }),
    notes: v.observed !== undefined ? [`observed ${Math.round(v.observed * 1000) / 1000}`] : [],
  }));
}

/** k6's checks (sentence names) from the `checks` samples, tallied per name. */
function k6Checks(scenario: ScenarioName, set: SampleSet): CheckResult[] {
  const tally = new Map<string, { pass: number; fail: number }>();
  for (const s of set.samples.get('checks') ?? []) {
    const name = s.tags.check ?? '(unnamed)';
    const t = tally.get(name) ?? { pass: 0, fail: 0 };
    if (s.value) t.pass++;
    else t.fail++;
    tally.set(name, t);
  }
  return [...tally].map(([name, t]) => ({
    id: `load.${scenario}.check:${name}`,
    title: name,
    requirements: [],
    status: t.fail ? 'failed' : 'passed',
    durationMs: 0,
    message: t.fail ? `expected every check to hold / received ${t.fail} of ${t.pass + t.fail} failing` : undefined,
    notes: [`${t.pass} passed`],
  }));
}

const countOf = (set: SampleSet, key: string) => aggregate(set, parseSelector(key))?.get('count') ?? 0;
const pOf = (set: SampleSet, key: string, p: string) => {
  const v = aggregate(set, parseSelector(key))?.get(p);
  return v === undefined ? undefined : Math.round(v * 100) / 100;
};

function figuresOf(opts: LoadOptions, tier: string, profile: Profile, set: SampleSet, env: Record<string, string>): Record<string, number | string> {
  const f: Record<string, number | string> = {
    requests: countOf(set, 'http_reqs'),
    rejected429: countOf(set, 'http_reqs{status:429}'),
  };
  const p95 = pOf(set, 'http_req_duration', 'p(95)');
  if (p95 !== undefined) f.p95Ms = p95;
  if (opts.scenario === 'rate-limit') {
    const limits = opts.publicMode ? { perMinute: 60, burst: profile.limits.publicBurst } : (TIERS as Record<string, { perMinute: number; burst: number }>)[tier];
    const measure = Number(env.SUSTAIN_SECONDS);
    f.tierPerMinute = limits?.perMinute ?? Number(env.TIER_PER_MINUTE);
    f.tierBurst = limits?.burst ?? Number(env.TIER_BURST);
    f.burstAccepted = countOf(set, 'accepted{phase:burst}');
    const burstSeconds = pOf(set, 'burst_seconds', 'max');
    if (burstSeconds !== undefined) f.burstSeconds = burstSeconds;
    f.sustainAdmitted = countOf(set, 'accepted{phase:sustain,window:measure}');
    f.measureSeconds = measure;
    f.admittedPerMinute = Math.round((f.sustainAdmitted / measure) * 60 * 100) / 100;
    f.headerViolations = countOf(set, 'header_violations');
  }
  if (opts.scenario === 'matching') {
    // Reads of lendcheck's own receiver are no requests to the target.
    f.requests = Number(f.requests) - countOf(set, 'http_reqs{endpoint:receiver.observed}');
    const e = aggregate(set, parseSelector('order_errors'))?.get('rate');
    if (e !== undefined) f.orderErrorRate = e;
  }
  if (opts.scenario === 'mixed') {
    const endpoints = new Set((set.samples.get('http_req_duration') ?? []).map((s) => s.tags.endpoint).filter(Boolean));
    for (const ep of endpoints) {
      for (const p of ['p(95)', 'p(99)']) {
        const v = pOf(set, `http_req_duration{endpoint:${ep}}`, p);
        if (v !== undefined) f[`${ep} ${p} ms`] = v;
      }
    }
  }
  return f;
}

function seriesOf(opts: LoadOptions, tier: string, profile: Profile, set: SampleSet) {
  const reqs = (set.samples.get('http_reqs') ?? []).filter((s) => s.tags.endpoint !== 'receiver.observed');
  const origin = set.firstMs;
  const seconds = (set.lastMs - set.firstMs) / 1000 + 1;
  const ok = reqs.filter((s) => /^2\d\d$/.test(s.tags.status ?? ''));
  const limited = reqs.filter((s) => s.tags.status === '429');
  const perMinute = opts.publicMode ? 60 : (TIERS as Record<string, { perMinute: number }>)[tier]?.perMinute;
  const latency: Record<string, number> = {};
  for (const p of ['p(50)', 'p(95)', 'p(99)']) {
    const v = pOf(set, 'http_req_duration', p === 'p(50)' ? 'med' : p);
    if (v !== undefined) latency[p] = v;
  }
  void profile;
  return {
    name: `${opts.scenario} ${opts.publicMode ? 'public' : tier}`,
    tier: opts.publicMode ? 'public' : tier,
    limitPerMinute: perMinute,
    accepted: Number.isFinite(origin) ? perSecond(ok, origin, seconds) : [],
    rejected: Number.isFinite(origin) ? perSecond(limited, origin, seconds) : [],
    latencyMs: latency,
    endpoints: latencyDistributions(set),
  };
}

/** Segments: k6 summaries cannot be added up, so the merged one is rebuilt from samples. */
function writeMergedSummary(file: string, verdicts: ThresholdVerdict[], set: SampleSet, thresholds: ThresholdMap): void {
  const metrics: Record<string, Record<string, unknown>> = {};
  const keys = new Set([...set.samples.keys(), ...Object.keys(thresholds)]);
  for (const key of keys) {
    const agg = aggregate(set, parseSelector(key));
    if (!agg) continue;
    const m: Record<string, unknown> = {};
    const names = agg.type === 'trend' ? ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'] : agg.type === 'counter' ? ['count', 'rate'] : agg.type === 'rate' ? ['rate'] : ['value'];
    for (const n of names) m[n] = agg.get(n);
    const own = verdicts.filter((v) => v.metric === key);
    // Same convention as k6's summary export: true means the threshold was crossed.
    if (own.length) m.thresholds = Object.fromEntries(own.map((v) => [v.expression, !v.ok]));
    metrics[key] = m;
  }
  writeFileSync(file, JSON.stringify({ merged: true, note: 'merged from execution segments by lendcheck', metrics }, null, 2) + '\n');
}
