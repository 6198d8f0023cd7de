import { Decimal } from '../../contract/decimal.ts';
import { CheckFailure, unaffordable, show, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';
import type { Exchanges } from './exchanges.ts';
import { accepted, errorCode, rateLimited } from './storm.ts';
import { timeline } from './timeline.ts';

// What the storm checks share: how a storm's answers are sorted, and how a failure is
// reported with the storm's history as a timeline.

/**
 * Overlapping requests per storm. Five already exceeds what the funds allow (30 % each) and keeps
 * a few-ms race window crowded: every race fault of the sandbox is caught at five (the proof,
 * conformance/concurrency/testing/proof.test.ts); eight spent 3 more requests a storm that no
 * fault needed (issue 48).
 */
export const STORM = 5;

/** A run's storm size: the plan's (a quick plan storms with fewer, still more than the funds allow), else STORM. */
export const stormOf = (ctx: Pick<CheckContext, 'storm'>): number => ctx.storm ?? STORM;

export interface Sorted {
  accepted: number[];
  refused: number[];
  limited: number[];
  /** Anything else: a 5xx, or a 4xx other than the expected refusal. */
  other: number[];
}

/** Sorts a storm's replies by index: accepted, refused as `isRefusal`, rate-limited (never a failure), other. */
export function sort(replies: Reply[], isRefusal: (r: Reply) => boolean): Sorted {
  const s: Sorted = { accepted: [], refused: [], limited: [], other: [] };
  replies.forEach((r, i) => (accepted(r) ? s.accepted : rateLimited(r) ? s.limited : isRefusal(r) ? s.refused : s.other).push(i));
  return s;
}

export const isInsufficient = (r: Reply) => r.status >= 400 && r.status < 500 && errorCode(r) === 'insufficient_funds';

/** Fails the check, attaching the storm's timeline (as a note) so the report shows who overlapped whom. */
export function stormFail(ctx: CheckContext, history: Exchanges, title: string, expected: string, received: string, exchange?: Reply['exchange']): never {
  ctx.note(`history of the storm (${history.length} operations):\n${timeline(history)}`);
  throw new CheckFailure(title, expected, received, exchange);
}

/** Answers other than accepted, the expected refusal and 429 fail the check (a 5xx under overlap above all). */
export function expectOnly(ctx: CheckContext, history: Exchanges, replies: Reply[], s: Sorted, what: string, refusal: string): void {
  if (!s.other.length) return;
  const r = replies[s.other[0]!]!;
  stormFail(ctx, history, `${what}: every overlapping request is accepted, refused with ${refusal}, or rate limited`, `2xx, ${refusal} or 429`, `${s.other.length} of ${replies.length} answered otherwise, e.g. ${r.status} ${show(r.json ?? r.text)}`, r.exchange);
}

/** The amount `x` of an asset rounded down to what both the asset and a plain decimal string hold. */
export function units(x: Decimal, decimals: number): Decimal {
  return x.toDecimalPlaces(Math.min(decimals, 2), Decimal.ROUND_DOWN);
}

export const signed = (x: Decimal) => (x.isNegative() ? `−${x.abs().toFixed()}` : x.toFixed());

export function noteRateLimited(ctx: CheckContext, s: Sorted, what: string): void {
  if (s.limited.length) ctx.note(`${s.limited.length} ${what} answered 429 during the storm and count as not accepted (a race needing them to overlap is not seen)`);
}

/** A storm whose answers were mostly 429 observed no race: skip, saying so, rather than pass on nothing. */
export function requireAnswered(s: Sorted, total: number, min: number, what: string): void {
  const answered = total - s.limited.length;
  if (answered < min) {
    throw unaffordable(`only ${answered} of ${total} ${what} were answered other than 429: the target's rate limit left too few overlapping (at least ${min} needed) to observe a race`);
  }
}
