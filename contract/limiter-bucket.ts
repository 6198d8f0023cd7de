import { RATE_LIMIT_HEADERS } from './constants.ts';

// Whether a keyed read draws from the key's bucket, not the public one (part 8: public endpoints
// 60 a minute per client; authenticated requests by the key's tier). The limiter's checks and
// the load step's tier runs measure a key through one path: the profile's rates path, or where
// that is unknown the authenticated order book, whose path the public order book shares (profile
// orderbookPath 'shared-by-auth': without a key the public one answers). Measuring the public
// bucket against tier figures fails a correct service (issue 47, cause 1), so it is decided from
// answers: refused without a key is a keyed path; else a keyless answer, the keyed one, and a
// second keyless one, whose headers tell the buckets apart.

export interface LimitReply {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string | undefined>;
}

const num = (r: LimitReply, h: string) => {
  const v = Number(r.headers[h.toLowerCase()]);
  return r.headers[h.toLowerCase()] === undefined || !Number.isFinite(v) ? undefined : v;
};

/** Refused without a key (part 5: 401; a 403 refuses too). */
export const refusedWithoutKey = (r: LimitReply) => r.status === 401 || r.status === 403;

/**
 * Undefined when `keyed` is known to draw from another bucket than the keyless answers around it;
 * else why not. Known when its X-RateLimit-Limit differs from theirs, or when the public bucket's
 * Remaining fell by at most one across the keyed request (it took no token from it).
 */
export function keyedBucketApart(bare: LimitReply, keyed: LimitReply, bareAfter: LimitReply): string | undefined {
  if (keyed.status < 200 || keyed.status > 299) return `the keyed request answered ${keyed.status}`;
  const [lb, lk] = [num(bare, RATE_LIMIT_HEADERS.limit), num(keyed, RATE_LIMIT_HEADERS.limit)];
  if (lb !== undefined && lk !== undefined && lb !== lk) return undefined;
  const [r1, r2] = [num(bare, RATE_LIMIT_HEADERS.remaining), num(bareAfter, RATE_LIMIT_HEADERS.remaining)];
  if (r1 === undefined || r2 === undefined) return `the keyless answers carry no ${RATE_LIMIT_HEADERS.remaining} to tell the buckets apart, and ${RATE_LIMIT_HEADERS.limit} is the same with and without the key (${lk ?? 'absent'})`;
  if (r1 - r2 <= 1) return undefined;
  return `the public bucket's ${RATE_LIMIT_HEADERS.remaining} fell from ${r1} to ${r2} across one keyed request: it draws from the public bucket`;
}
