import { describe, expect, it } from 'vitest';
import { keyedBucketApart, refusedWithoutKey } from './limiter-bucket.ts';

// Which bucket a keyed request draws from, told by answers (issue 47, cause 1).

const r = (status: number, limit?: number, remaining?: number) => ({
  status,
  headers: { ...(limit === undefined ? {} : { 'x-ratelimit-limit': String(limit) }), ...(remaining === undefined ? {} : { 'x-ratelimit-remaining': String(remaining) }) },
});

describe('keyedBucketApart', () => {
  it('is apart when the keyed answer states another limit', () => {
    expect(keyedBucketApart(r(200, 100, 99), r(200, 500, 499), r(200, 100, 98))).toBeUndefined();
  });
  it('is apart when the limits match but the public bucket lost only its own token', () => {
    expect(keyedBucketApart(r(200, 100, 99), r(200, 100, 80), r(200, 100, 98))).toBeUndefined();
  });
  it('is not when the keyed request took a token from the public bucket', () => {
    expect(keyedBucketApart(r(200, 100, 99), r(200, 100, 98), r(200, 100, 97))).toMatch(/fell from 99 to 97 .*public bucket/);
  });
  it('cannot tell without headers, nor from a refused keyed request', () => {
    expect(keyedBucketApart(r(200), r(200), r(200))).toMatch(/no X-RateLimit-Remaining/);
    expect(keyedBucketApart(r(200, 100, 99), r(404), r(200, 100, 98))).toMatch(/answered 404/);
  });
  it('takes 401 and 403 without a key as refused', () => {
    expect([401, 403, 200, 404].map((s) => refusedWithoutKey(r(s)))).toEqual([true, true, false, false]);
  });
});
