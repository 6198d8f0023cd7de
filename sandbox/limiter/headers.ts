import { RATE_LIMIT_HEADERS, type Profile } from '../../contract/index.ts';
import type { LimitDecision, LimitRule } from './gcra.ts';

// X-RateLimit-* values in the profile's units (spec part 8 leaves the Limit figure under a
// burst allowance and the unit of Reset open).

export function rateLimitHeaders(profile: Profile, rule: LimitRule, d: LimitDecision, wallNowMs: number): Record<string, string> {
  const limit = profile.limits.limitHeader === 'per-minute' ? rule.perMinute : rule.capacity;
  let reset: number;
  switch (profile.limits.resetUnit) {
    case 'delta-seconds':
      reset = d.resetSeconds;
      break;
    case 'unix-seconds':
      reset = Math.ceil((wallNowMs + d.resetMs) / 1000);
      break;
    case 'unix-ms':
      reset = Math.ceil(wallNowMs + d.resetMs);
      break;
  }
  const h: Record<string, string> = {
    [RATE_LIMIT_HEADERS.limit]: String(limit),
    [RATE_LIMIT_HEADERS.remaining]: String(d.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(reset),
  };
  if (!d.allowed) h['Retry-After'] = String(d.retryAfterSeconds);
  return h;
}
