import type { CheckContext } from './check.ts';
import type { Reply } from './http.ts';

// Part 7: "Codes for other conditions (… invalid state for an operation …): not shown". A refusal
// of an operation the position's state forbids may come as any 4xx with the error object; the
// profile's errors.invalidState is the target's choice, noted when it differs (a failure only
// under --strict), never the test of whether the answer is a refusal (a 409 `conflict` is one).

/** Statuses that mean something else: the key, the position's existence, the rate limit. */
const OTHER_MEANING = new Set([401, 403, 404, 429]);

const errorCode = (r: Reply): string | undefined => {
  const e = (r.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return e && typeof e.code === 'string' && e.code && typeof e.message === 'string' ? e.code : undefined;
};

/** Whether `r` refuses the operation for the position's state; the profile's choice noted against it. */
export function refusedForState(ctx: CheckContext, r: Reply): boolean {
  const code = errorCode(r);
  if (r.status < 400 || r.status > 499 || OTHER_MEANING.has(r.status) || !code || code === 'insufficient_funds') return false;
  const want = ctx.profile.errors.invalidState;
  ctx.profileChoice({ option: 'errors.invalidState', expected: `${want.status} ${want.code}`, followed: r.status === want.status && code === want.code, received: `${r.status} ${code}` }, r.exchange);
  return true;
}
