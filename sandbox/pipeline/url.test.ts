import { describe, expect, it } from 'vitest';
import { createSandbox } from '../app.ts';
import { compileRouter } from '../../contract/router.ts';
import { decodeParam, pathOf, queryOf, targetOf } from './url.ts';

// The edge cases hono/utils/url covered while it decoded the sandbox's targets, now decoded by
// the platform (decodeURI, decodeURIComponent, URLSearchParams): the same answers.

describe('pathOf', () => {
  it('cuts the path at ? and #, from a target or a whole URL', () => {
    expect(pathOf('/v1/positions/p1?x=1')).toBe('/v1/positions/p1');
    expect(pathOf('http://sandbox/v1/markets#top')).toBe('/v1/markets');
    expect(pathOf('https://h:8080/v1/a%20b?q=%20')).toBe('/v1/a b');
    expect(pathOf('http://sandbox')).toBe('/');
  });
  it('percent-decodes, keeping reserved escapes (%2F, %3F) and %25 as they came', () => {
    expect(pathOf('/v1/m%61rkets')).toBe('/v1/markets');
    expect(pathOf('/v1/positions/a%2Fb')).toBe('/v1/positions/a%2Fb');
    expect(pathOf('/v1/positions/a%3Fb')).toBe('/v1/positions/a%3Fb');
    expect(pathOf('/v1/positions/%2541')).toBe('/v1/positions/%2541');
    expect(pathOf('/v1/users/%C3%A9')).toBe('/v1/users/é');
  });
  it('leaves malformed escapes as they came and decodes the rest', () => {
    expect(pathOf('/v1/users/%zz%20x')).toBe('/v1/users/%zz x');
    expect(pathOf('/v1/users/100%')).toBe('/v1/users/100%');
    expect(pathOf('/v1/users/%E0%A4%A')).toBe('/v1/users/%E0%A4%A');
    expect(pathOf('/v1/users/%A4%A2/%20')).toBe('/v1/users/%A4%A2/ ');
  });
});

describe('targetOf', () => {
  it('keeps path and query raw, without the fragment', () => {
    expect(targetOf('http://sandbox/v1/a%20b?limit=1&x=%2B#f')).toBe('/v1/a%20b?limit=1&x=%2B');
    expect(targetOf('/v1/x?y')).toBe('/v1/x?y');
  });
});

describe('queryOf', () => {
  it('decodes escapes and + as a space, names and values alike', () => {
    expect(queryOf('/v1/x?status=a%20b&type=c+d&e%3D=1')).toEqual({ status: 'a b', type: 'c d', 'e=': '1' });
    expect(queryOf('/v1/x?plus=%2B')).toEqual({ plus: '+' });
  });
  it('keeps the first of a repeated parameter, drops a nameless one, reads a bare name as empty', () => {
    expect(queryOf('/v1/x?limit=2&limit=5&=z&flag')).toEqual({ limit: '2', flag: '' });
  });
  it('keeps malformed escapes, never throws', () => {
    expect(queryOf('/v1/x?cursor=%zz&n=100%')).toEqual({ cursor: '%zz', n: '100%' });
    // Bytes that are not UTF-8 become U+FFFD (the WHATWG rule; hono kept the escapes).
    expect(queryOf('/v1/x?b=%A4%A2')).toEqual({ b: '\uFFFD\uFFFD' });
  });
  it('has nothing without a query, and stops at the fragment', () => {
    expect(queryOf('/v1/x')).toEqual({});
    expect(queryOf('/v1/x?a=1#b=2')).toEqual({ a: '1' });
  });
});

describe('decodeParam (router)', () => {
  it('decodes a parameter whole (%2F is a slash, %25 a percent), malformed escapes kept', () => {
    expect(decodeParam('a%2Fb')).toBe('a/b');
    expect(decodeParam('%2541')).toBe('%41');
    expect(decodeParam('%zz%20')).toBe('%zz ');
    const r = compileRouter([{ method: 'GET', path: '/v1/positions/{id}', value: 'get' }], decodeParam);
    expect(r.match('GET', pathOf('/v1/positions/a%2Fb'))?.params).toEqual(['a/b']);
    expect(r.match('GET', pathOf('/v1/positions/a/b'))).toBeUndefined();
  });
});

describe('through the sandbox', () => {
  it('answers odd targets with a 4xx, never a 5xx', async () => {
    const sb = createSandbox({ plugins: [], tickMs: 0 });
    try {
      const auth = { authorization: 'Bearer ck_test_partner_a_growth' };
      for (const target of ['/v1/positions/%zz', '/v1/positions/%E0%A4%A', '/v1/positions/a%2Fb', '/v1/users/u1/positions?limit=%zz', '/v1/users/u1/positions?status=a+b', '/v1/m%61rkets/x']) {
        const r = await sb.fetch(new Request(`http://sandbox${target}`, { headers: auth }));
        expect(r.status, target).toBeGreaterThanOrEqual(400);
        expect(r.status, target).toBeLessThan(500);
      }
      expect((await sb.fetch(new Request('http://sandbox/v1/m%61rkets'))).status, 'an escaped literal segment routes').toBe(200);
      expect((await sb.fetch(new Request('http://sandbox/v1/users/u1/positions?limit=1&limit=500', { headers: auth }))).status, 'the first limit counts').toBe(200);
    } finally {
      await sb.close();
    }
  });
});
