import { RATE_LIMIT_HEADERS } from '../contract/index.ts';
import type { Reply } from '../conformance/http.ts';

// The request budget of a detection the user gave none. A Starter key's burst (100) keeps
// detection within one full Starter bucket: what the checks need most is searched first within
// it (index.ts DETECTORS: the amount bounds, collateral ratio and assets.info before what only
// refines notes), with room kept for cleaning up (Probe.owed), and the rest is left. A key whose
// own X-RateLimit-Remaining, read on its first answers, shows room gets up to what a whole
// detection costs; a Starter key, or a target without the header, keeps 100. A budget given
// with --max-requests is never changed.

/** A Starter key's burst: the budget when the key shows no room for more. */
export const DEFAULT_MAX_REQUESTS = 100;

/** What a whole detection costs at most, controls included (matrix.ts CONTROLS_BUDGET): the most a key with room gets. */
export const FULL_DETECTION_REQUESTS = 220;

/** The share of the room shown that detection may take: the rest, and the refill, keep it clear of a 429. */
const ROOM_SHARE = 0.8;

/** The X-RateLimit-Remaining of an answer, or undefined when it carries none (or not a count). */
export function remainingOf(r: Reply): number | undefined {
  const v = r.headers[RATE_LIMIT_HEADERS.remaining.toLowerCase()];
  const n = v === undefined || v.trim() === '' ? Number.NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The budget after `used` requests, the last answer to the main key showing `remaining`: the
 * default, raised to what four fifths of the room allows, at most a whole detection's cost.
 */
export function widenedBudget(used: number, remaining: number | undefined): { max: number; note?: string } {
  if (remaining === undefined) return { max: DEFAULT_MAX_REQUESTS };
  const max = Math.min(FULL_DETECTION_REQUESTS, Math.max(DEFAULT_MAX_REQUESTS, used + Math.floor(remaining * ROOM_SHARE)));
  if (max === DEFAULT_MAX_REQUESTS) return { max };
  return { max, note: `raised from ${DEFAULT_MAX_REQUESTS} to ${max}: the key's ${RATE_LIMIT_HEADERS.remaining} was ${remaining} after ${used} requests (--max-requests sets it)` };
}
