import { RATE_LIMIT_HEADERS, TIERS, ratesResponse } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { ok, type Detector, type Probe } from '../probe.ts';

// The rates path among candidates (the spec leaves it open), and from the same replies the
// rate-limit header units: whether X-RateLimit-Limit is a tier's burst or its per-minute
// rate, and X-RateLimit-Reset's unit judged by its magnitude against the clock.

export const RATES_PATH_CANDIDATES = ['/rates', '/market-rates', '/rates/current', '/interest-rates', '/lending-rates', '/markets/rates'];

export const ratesDetector: Detector = {
  name: 'rates path and rate-limit headers',
  options: ['ratesPath', 'successStatus.GET /rates', 'limits.limitHeader', 'limits.resetUnit'],
  async run(p) {
    const tried: Reply[] = [];
    for (const path of RATES_PATH_CANDIDATES) {
      const r = await p.call('GET', path);
      tried.push(r);
      if (ok(r) && ratesResponse.safeParse(r.json).success) {
        p.facts.set('ratesPath', path);
        p.set('ratesPath', path, path === '/markets/rates' ? 'medium' : 'high', [r], `first of ${RATES_PATH_CANDIDATES.join(', ')} answering a rates body`);
        p.set('successStatus.GET /rates', r.status, 'high', [r]);
        break;
      }
    }
    if (!p.facts.has('ratesPath')) p.miss('ratesPath', `no candidate answered a rates body: ${tried.map((r) => r.status).join(', ')} for ${RATES_PATH_CANDIDATES.join(', ')}`);
    rateLimitUnits(p, tried[tried.length - 1]!);
  },
};

/** Limit against the tier table, Reset against the clock: each unit has its own magnitude. */
export function rateLimitUnits(p: Probe, r: Reply): void {
  const limit = Number(r.headers[RATE_LIMIT_HEADERS.limit.toLowerCase()]);
  const reset = Number(r.headers[RATE_LIMIT_HEADERS.reset.toLowerCase()]);
  if (!Number.isFinite(limit)) p.miss('limits.limitHeader', `no numeric ${RATE_LIMIT_HEADERS.limit} on an authenticated reply`);
  else {
    const tiers = Object.values(TIERS);
    const burst = tiers.some((t) => t.burst === limit);
    const perMinute = tiers.some((t) => t.perMinute === limit);
    if (burst !== perMinute) {
      p.set('limits.limitHeader', burst ? 'burst' : 'per-minute', 'high', [r], `${RATE_LIMIT_HEADERS.limit} ${limit} is a tier's ${burst ? 'burst' : 'per-minute rate'} in the spec's table`);
      p.facts.set('limitHeader', burst ? 'burst' : 'per-minute');
    } else p.miss('limits.limitHeader', `${RATE_LIMIT_HEADERS.limit} ${limit} is neither a tier's burst nor its per-minute rate (a custom tier?)`);
  }
  const unit = resetUnitOf(reset, Date.now());
  if (unit) p.set('limits.resetUnit', unit, 'high', [r], `${RATE_LIMIT_HEADERS.reset} ${reset} against the clock ${Date.now()} ms`);
  else p.miss('limits.resetUnit', `${RATE_LIMIT_HEADERS.reset} ${r.headers[RATE_LIMIT_HEADERS.reset.toLowerCase()] ?? '(absent)'} fits no unit`);
}

/** Unix ms and Unix seconds sit within a day of the clock; a delta is at most a day. */
export function resetUnitOf(v: number, nowMs: number): 'delta-seconds' | 'unix-seconds' | 'unix-ms' | undefined {
  if (!Number.isFinite(v) || v < 0) return undefined;
  const day = 86_400;
  if (Math.abs(v - nowMs) <= day * 1000) return 'unix-ms';
  if (Math.abs(v - nowMs / 1000) <= day) return 'unix-seconds';
  if (v <= day) return 'delta-seconds';
  return undefined;
}
