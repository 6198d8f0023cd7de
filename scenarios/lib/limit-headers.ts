// The rate-limit header rules as small named functions (Schemathesis style): each
// returns undefined when the rule holds, or a typed failure "expected … / received …".
// `applyRules` turns them into k6 checks whose names read as sentences and counts each
// broken rule in header_violations{rule:…}, which a threshold holds at zero.
import { check } from 'k6';
import { ERROR_STATUS, RATE_LIMIT_HEADERS } from '../../contract/constants.ts';
import { expectedLimitHeader, type LoadConfig, type ResetUnit } from './config.ts';
import { header, jsonOf, type Res } from './http.ts';
import { headerViolations, wellFormed429 } from './metrics.ts';

export interface LimitHeaders {
  limit?: number;
  remaining?: number;
  reset?: number;
  retryAfter?: number;
}

const numeric = (v: string | undefined): number | undefined => (v !== undefined && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined);

export function readLimitHeaders(res: Res): LimitHeaders {
  return {
    limit: numeric(header(res, RATE_LIMIT_HEADERS.limit)),
    remaining: numeric(header(res, RATE_LIMIT_HEADERS.remaining)),
    reset: numeric(header(res, RATE_LIMIT_HEADERS.reset)),
    retryAfter: numeric(header(res, 'Retry-After')),
  };
}

/** Reads the unit off the magnitude: epoch milliseconds, epoch seconds, or a delta. */
export function detectResetUnit(value: number): ResetUnit {
  if (value >= 1e12) return 'unix-ms';
  if (value >= 1e9) return 'unix-seconds';
  return 'delta-seconds';
}

/** Seconds from `nowMs` until the moment Reset names. */
export function resetToSeconds(value: number, unit: ResetUnit, nowMs: number): number {
  if (unit === 'unix-ms') return (value - nowMs) / 1000;
  if (unit === 'unix-seconds') return value - nowMs / 1000;
  return value;
}

export type Rule = (res: Res, h: LimitHeaders, cfg: LoadConfig) => string | undefined;

export const RULES: Record<string, { title: string; rule: Rule }> = {
  'limit-present': {
    title: 'the response carries X-RateLimit-Limit, -Remaining and -Reset',
    rule: (_r, h) =>
      h.limit === undefined || h.remaining === undefined || h.reset === undefined
        ? `expected three numeric rate-limit headers / received limit=${h.limit} remaining=${h.remaining} reset=${h.reset}`
        : undefined,
  },
  'limit-equals-tier': {
    title: "X-RateLimit-Limit equals the tier's figure",
    rule: (_r, h, cfg) => (h.limit !== expectedLimitHeader(cfg) ? `expected Limit ${expectedLimitHeader(cfg)} (${cfg.tier}, ${cfg.limitHeader}) / received ${h.limit}` : undefined),
  },
  'remaining-not-negative': {
    title: 'X-RateLimit-Remaining is never negative',
    rule: (_r, h) => (h.remaining !== undefined && h.remaining < 0 ? `expected Remaining >= 0 / received ${h.remaining}` : undefined),
  },
  'remaining-within-limit': {
    title: 'X-RateLimit-Remaining never exceeds the bucket',
    rule: (_r, h, cfg) => (h.remaining !== undefined && h.remaining > cfg.burst ? `expected Remaining <= ${cfg.burst} / received ${h.remaining}` : undefined),
  },
  'reset-unit': {
    title: "X-RateLimit-Reset is in the profile's unit",
    rule: (_r, h, cfg) => {
      if (h.reset === undefined) return undefined;
      const unit = detectResetUnit(h.reset);
      return unit !== cfg.resetUnit ? `expected Reset in ${cfg.resetUnit} / received ${h.reset} (reads as ${unit})` : undefined;
    },
  },
};

export const RULES_429: Record<string, { title: string; rule: Rule }> = {
  'error-body': {
    title: 'a 429 carries the error object with code rate_limit_exceeded',
    rule: (res) => {
      const err = jsonOf(res)?.error as { code?: unknown; message?: unknown } | undefined;
      if (res.status !== ERROR_STATUS.rate_limit_exceeded) return `expected status 429 / received ${res.status}`;
      return err?.code === 'rate_limit_exceeded' && typeof err.message === 'string'
        ? undefined
        : `expected {error:{code:"rate_limit_exceeded",message}} / received ${String(res.body).slice(0, 120)}`;
    },
  },
  'retry-after': {
    title: 'a 429 carries Retry-After in seconds',
    rule: (_r, h) => (h.retryAfter === undefined || h.retryAfter < 0 ? `expected Retry-After >= 0 / received ${h.retryAfter}` : undefined),
  },
};

let logged = 0;

/** Applies rule sets to one response; returns whether all held. */
export function applyRules(res: Res, cfg: LoadConfig, sets: Array<Record<string, { title: string; rule: Rule }>>, tags: Record<string, string> = {}): boolean {
  const h = readLimitHeaders(res);
  let ok = true;
  const outcomes: Record<string, boolean> = {};
  for (const set of sets) {
    for (const [id, { title, rule }] of Object.entries(set)) {
      const failure = rule(res, h, cfg);
      outcomes[title] = failure === undefined;
      if (failure !== undefined) {
        ok = false;
        headerViolations.add(1, { rule: id, ...tags });
        // A few lines are enough to diagnose; a broken limiter would otherwise flood the log.
        if (logged++ < 5) console.warn(`${id}: ${failure}`);
      }
    }
  }
  check(res, Object.fromEntries(Object.entries(outcomes).map(([t, v]) => [t, () => v])), tags);
  return ok;
}

/** Checks a 429 completely and records whether it was well formed. */
export function check429(res: Res, cfg: LoadConfig, tags: Record<string, string>): void {
  wellFormed429.add(applyRules(res, cfg, [RULES, RULES_429], tags), tags);
}

/** Records a named sentence check with its typed failure; counts it as a header violation. */
export function ruleCheck(id: string, title: string, failure: string | undefined, tags: Record<string, string> = {}): boolean {
  check(null, { [title]: () => failure === undefined }, tags);
  if (failure !== undefined) {
    headerViolations.add(1, { rule: id, ...tags });
    if (logged++ < 5) console.warn(`${id}: ${failure}`);
  }
  return failure === undefined;
}
