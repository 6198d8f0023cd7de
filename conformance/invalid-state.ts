import type { CheckContext } from './check.ts';
import type { Reply } from './http.ts';

// Part 7: "Codes for other conditions (… invalid state for an operation …): not shown". A refusal
// of an operation the position's state forbids may come as any 4xx with the error object; the
// profile's errors.invalidState is the target's choice, noted when it differs (a failure only
// under --strict), never the test of whether the answer is a refusal (a 409 `conflict` is one).

/** Codes and statuses that mean something else: the funds, the position's existence, the key, the rate limit. */
export const OTHER_CODES = new Set(['insufficient_funds', 'position_not_found', 'authentication_failed', 'rate_limit_exceeded']);
const OTHER_STATUSES = new Set([401, 429]);

const errorCode = (r: Reply): string | undefined => {
  const e = (r.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return e && typeof e.code === 'string' && e.code && typeof e.message === 'string' ? e.code : undefined;
};

/** Whether `r` refuses the operation for the position's state; the profile's choice noted against it. */
export function refusedForState(ctx: CheckContext, r: Reply): boolean {
  const code = errorCode(r);
  const want = ctx.profile.errors.invalidState;
  if (!code || r.status < 400 || r.status > 499) return false;
  // The profile's own choice first: a target may refuse with a 404 of its own code (mutator seed 10).
  const followed = r.status === want.status && code === want.code;
  if (!followed && (OTHER_CODES.has(code) || OTHER_STATUSES.has(r.status))) return false;
  ctx.profileChoice({ option: 'errors.invalidState', expected: `${want.status} ${want.code}`, followed, received: `${r.status} ${code}` }, r.exchange);
  return true;
}
