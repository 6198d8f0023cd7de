import { z } from 'zod';

// The one results format every part writes (conformance, load, chaos, certify) and the
// report writers read. Data flows one way: suites → this JSON → reports. Keys and
// secrets never appear in it: exchanges are redacted before they are recorded.

export const exchange = z.object({
  method: z.string(),
  url: z.string(),
  status: z.number().int().nullable(),
  requestHeaders: z.record(z.string(), z.string()).default({}),
  requestBody: z.string().optional(),
  responseHeaders: z.record(z.string(), z.string()).default({}),
  responseBody: z.string().optional(),
  durationMs: z.number(),
  error: z.string().optional(),
  /**
   * The environment variable that holds the key this request carried (LENDCHECK_API_KEY,
   * LENDCHECK_API_KEY_2, LENDCHECK_BURST_KEY): a reproduction writes the variable, never the key.
   */
  credential: z.string().optional(),
  /**
   * The contract endpoint the request was made to (contract/endpoints.ts id, e.g.
   * `position.get`), named by the caller when it made it (ctx.call): absent for requests that
   * are no endpoint of the table (an unknown path, a probe of a route that should not exist).
   */
  endpoint: z.string().optional(),
});
export type Exchange = z.infer<typeof exchange>;

/** A webhook delivery as the receiver got it (headers and body redacted), for a reproduction. */
export const deliveryRecord = z.object({
  /** ms from the first delivery the check saw. */
  atMs: z.number().default(0),
  method: z.string(),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.string().optional(),
  /** What the receiver answered. */
  status: z.number().int().optional(),
});
export type DeliveryRecord = z.infer<typeof deliveryRecord>;

/**
 * Everything needed to see a failed check happen again without lendcheck: the exchanges it
 * made up to the failure (rendered as curl lines by reports/repro), the seed and the shrunk
 * input of a generated case, webhook deliveries, and a timeline as text (retry attempts, a
 * concurrency history). Written redacted, like everything else in a result.
 */
export const reproduction = z.object({
  exchanges: z.array(exchange).default([]),
  /** Exchanges left out of the middle (a long burst or walk): the first and the last are kept. */
  omitted: z.number().int().default(0),
  /** Non-secret values a reader must supply, by variable name (e.g. LENDCHECK_RECEIVER_URL → the receiver URL of the run). */
  vars: z.record(z.string(), z.string()).default({}),
  /** The run's seed: `lendcheck replay` and `--seed` use it. */
  seed: z.number().optional(),
  /** The smallest generated input that still fails, as the property library shrank it (JSON). */
  input: z.string().optional(),
  deliveries: z.array(deliveryRecord).default([]),
  /** A timeline as plain text, one line per step (webhook attempts, a concurrency history). */
  timeline: z.string().optional(),
});
export type Reproduction = z.infer<typeof reproduction>;

export const checkStatus = z.enum(['passed', 'failed', 'skipped']);
/**
 * Why a check skipped, as a kind a verdict can weigh (never read from the message):
 * - unaffordable: lendcheck could not afford it (rate-limit room, a time or search budget):
 *   the part is INCOMPLETE, never a pass;
 * - target-lacks: the target lacks something the spec does not require (sandbox controls, a
 *   test clock, insufficient_funds details): listed with its reason, may pass with the rest;
 * - run-lacks: the run was not given something (a second key, a burst key, write access);
 * - not-observed: the situation the check needs did not arise (an order matched before it
 *   could be cancelled, a crowded book), or no answer came to judge.
 */
export const skipKind = z.enum(['unaffordable', 'target-lacks', 'run-lacks', 'not-observed']);
export type SkipKind = z.infer<typeof skipKind>;
/** Skips of these kinds keep a part from passing. */
export const INCOMPLETE_SKIP_KINDS: readonly SkipKind[] = ['unaffordable'];
/**
 * Advice (issue 47): what lendcheck believes of an answer but the spec does not state of it (a
 * same-named field of another type where the spec shows no body, a type seen once). Shown on
 * the console and in the report; never fails a check nor changes an exit code (--strict makes
 * it a failure instead, and then it is a failure, not advice).
 */
export const advisory = z.object({
  /** What lendcheck believes, and why it is only advice. */
  expected: z.string(),
  received: z.string(),
  /** The requirement whose sentence it leans on (contract/requirements.ts), where one does. */
  requirement: z.string().optional(),
  /** The profile record it leans on, where it is one. */
  profile: z.string().optional(),
  /** The answer that shows it: method, URL and status. */
  evidence: z.string().optional(),
});
export type Advisory = z.infer<typeof advisory>;

export const checkResult = z.object({
  id: z.string(),
  title: z.string(),
  requirements: z.array(z.string()).default([]),
  status: checkStatus,
  durationMs: z.number().default(0),
  /** Requests the check sent to the target (its share of the run's rate-limit budget). */
  requests: z.number().int().optional(),
  /** Failures: "expected … / received …". Skips: the stated reason. */
  message: z.string().optional(),
  /** Skips: the kind of the reason (see skipKind); absent on older results, read as not-observed. */
  skipKind: skipKind.optional(),
  exchange: exchange.optional(),
  /** Failures: how to see it happen again (reports/repro renders it). */
  reproduction: reproduction.optional(),
  /** Set when the check crashed inside lendcheck (a bug of ours, not a verdict on the target): the stack. */
  internalError: z.string().optional(),
  /** Non-failing observations, e.g. undocumented extra fields, or profile deviations outside --strict. */
  notes: z.array(z.string()).default([]),
  /** Advice with its evidence (see advisory): never a failure. Absent when there is none. */
  advisories: z.array(advisory).optional(),
});
export type CheckResult = z.infer<typeof checkResult>;

export const coverageRow = z.object({ requirement: z.string(), checks: z.array(z.string()), result: z.enum(['passed', 'failed', 'skipped', 'uncovered']) });

/** A time series point for charts: t in seconds from the phase start. */
export const seriesPoint = z.object({ t: z.number(), value: z.number() });
/**
 * Latency of the answered (2xx) requests to one endpoint: percentiles, and the samples
 * themselves (at most 512 evenly spaced order statistics once a run has more), so a later
 * comparison can test two distributions instead of two single numbers.
 */
export const latencyDistribution = z.object({
  endpoint: z.string(),
  count: z.number().int(),
  p50: z.number(),
  p95: z.number(),
  p99: z.number(),
  samples: z.array(z.number()),
});
export type LatencyDistribution = z.infer<typeof latencyDistribution>;

export const loadSeries = z.object({
  name: z.string(),
  tier: z.string().optional(),
  limitPerMinute: z.number().optional(),
  accepted: z.array(seriesPoint),
  rejected: z.array(seriesPoint),
  latencyMs: z.record(z.string(), z.number()).default({}),
  endpoints: z.array(latencyDistribution).optional(),
});

export const timelineEvent = z.object({
  eventId: z.string(),
  type: z.string(),
  /** Offsets in ms from the first attempt. */
  expectedMs: z.array(z.number()),
  observedMs: z.array(z.number()),
  /** pending: the schedule was not observed to its end (the next attempt was still due). */
  verdict: z.enum(['passed', 'failed', 'pending']),
  message: z.string().optional(),
});

/** One figure of a run against the same figure of a baseline run (lendcheck compare, gate --baseline). */
export const diffRow = z.object({
  /** What the figure belongs to: a load series ("rate-limit starter"), a part, or a check. */
  scope: z.string(),
  endpoint: z.string().optional(),
  metric: z.string(),
  baseline: z.number().nullable(),
  current: z.number().nullable(),
  /** current − baseline, and the same as a share of the baseline when it is not 0. */
  delta: z.number().nullable(),
  deltaPct: z.number().nullable(),
  direction: z.enum(['better', 'worse', 'same', 'changed', 'new', 'gone']),
  /** Latency: a two-sided Mann-Whitney U test on the two sample sets. Counts: exact, so any change is real. */
  significance: z.string(),
  pValue: z.number().optional(),
  /** Set when a --max-regression bound is crossed: the bound, e.g. "p95=10%". */
  regression: z.string().optional(),
});
export type DiffRow = z.infer<typeof diffRow>;

/** Earlier values of one figure, oldest first, for the report's sparklines. */
export const trendLine = z.object({
  scope: z.string(),
  endpoint: z.string().optional(),
  metric: z.string(),
  points: z.array(z.object({ runId: z.string(), value: z.number().nullable() })),
});

export const comparison = z.object({
  runId: z.string(),
  baselineRunId: z.string().nullable(),
  /** Why this baseline (or why there is none). */
  baselineReason: z.string(),
  rows: z.array(diffRow),
  newFailures: z.array(z.object({ id: z.string(), title: z.string(), part: z.string() })).default([]),
  trends: z.array(trendLine).default([]),
});
export type Comparison = z.infer<typeof comparison>;

export const partResult = z.object({
  part: z.enum(['conformance', 'load', 'chaos', 'certify', 'contract', 'regression', 'schemathesis']),
  name: z.string(),
  /** incomplete: the part ran but could not observe enough to pass (e.g. a schedule still pending). */
  status: z.enum(['passed', 'failed', 'skipped', 'incomplete']),
  skipReason: z.string().optional(),
  target: z.string().optional(),
  profile: z.string().optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  checks: z.array(checkResult).default([]),
  coverage: z.array(coverageRow).optional(),
  series: z.array(loadSeries).optional(),
  timeline: z.array(timelineEvent).optional(),
  figures: z.record(z.string(), z.union([z.number(), z.string()])).default({}),
  /** The regression part: this run against a baseline from the run history. */
  comparison: comparison.optional(),
});
export type PartResult = z.infer<typeof partResult>;

export const runSummary = z.object({
  runId: z.string(),
  /** incomplete: nothing failed, but a requested step skipped or could not finish observing (exit 3). */
  verdict: z.enum(['passed', 'failed', 'incomplete']),
  /** Why the verdict is not a pass, e.g. which requested step skipped. */
  verdictReasons: z.array(z.string()).optional(),
  target: z.string(),
  profile: z.string(),
  startedAt: z.string(),
  durationMs: z.number(),
  parts: z.array(partResult),
});
export type RunSummary = z.infer<typeof runSummary>;
