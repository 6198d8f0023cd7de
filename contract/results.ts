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
});
export type Exchange = z.infer<typeof exchange>;

export const checkStatus = z.enum(['passed', 'failed', 'skipped']);
export const checkResult = z.object({
  id: z.string(),
  title: z.string(),
  requirements: z.array(z.string()).default([]),
  status: checkStatus,
  durationMs: z.number().default(0),
  /** Failures: "expected … / received …". Skips: the stated reason. */
  message: z.string().optional(),
  exchange: exchange.optional(),
  /** Non-failing observations, e.g. undocumented extra fields, or profile deviations outside --strict. */
  notes: z.array(z.string()).default([]),
});
export type CheckResult = z.infer<typeof checkResult>;

export const coverageRow = z.object({ requirement: z.string(), checks: z.array(z.string()), result: z.enum(['passed', 'failed', 'skipped', 'uncovered']) });

/** A time series point for charts: t in seconds from the phase start. */
export const seriesPoint = z.object({ t: z.number(), value: z.number() });
export const loadSeries = z.object({
  name: z.string(),
  tier: z.string().optional(),
  limitPerMinute: z.number().optional(),
  accepted: z.array(seriesPoint),
  rejected: z.array(seriesPoint),
  latencyMs: z.record(z.string(), z.number()).default({}),
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

export const partResult = z.object({
  part: z.enum(['conformance', 'load', 'chaos', 'certify', 'contract', 'schemathesis']),
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
});
export type PartResult = z.infer<typeof partResult>;

export const runSummary = z.object({
  runId: z.string(),
  /** incomplete: nothing failed, but a requested step skipped or could not finish observing (exit 3). */
  verdict: z.enum(['passed', 'failed', 'incomplete']),
  target: z.string(),
  profile: z.string(),
  startedAt: z.string(),
  durationMs: z.number(),
  parts: z.array(partResult),
});
export type RunSummary = z.infer<typeof runSummary>;
