import { afterEach, describe, expect, it } from 'vitest';
import { TIERS } from '../../contract/index.ts';
import { caller, testSandbox } from '../testing/helpers.ts';
import { rateLimitPlugin } from './plugin.ts';

// The limiter inside the real sandbox app (real auth, real keys, real routes), on injected
// real time so the tests step the clock instead of sleeping.

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function setup() {
  let now = 0;
  const sb = testSandbox({ plugins: [rateLimitPlugin({ now: () => now })] });
  open.push(sb);
  return { call: caller(sb), step: (ms: number) => (now += ms) };
}

const headers = (h: Headers) => [h.get('X-RateLimit-Limit'), h.get('X-RateLimit-Remaining'), h.get('X-RateLimit-Reset')];

describe('rate limits in the sandbox', () => {
  // Scale's 2000-request burst is shown at the limiter level (gcra.test.ts); through the whole
  // app it costs seconds of a shared CI machine for no extra coverage of the wiring.
  it.each(Object.entries(TIERS).filter(([t]) => t !== 'scale'))('%s key: the burst, then one request per refill interval, headers matching the bucket', async (tier, t) => {
    const { call, step } = setup();
    const key = `ck_test_partner_a_${tier}`;
    for (let i = 0; i < t.burst; i++) {
      const r = await call('GET', '/sandbox/clock', { key });
      expect(r.status).toBe(200);
      if (i === 0 || i === t.burst - 1) expect(headers(r.headers)).toEqual([String(t.burst), String(t.burst - 1 - i), String(Math.ceil(((i + 1) * 60_000) / t.perMinute / 1000))]);
    }
    const refused = await call('GET', '/sandbox/clock', { key });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limit_exceeded');
    expect(refused.headers.get('Retry-After')).toBe('1');
    const interval = 60_000 / t.perMinute;
    step(interval - 1);
    expect((await call('GET', '/sandbox/clock', { key })).status).toBe(429);
    step(1);
    const again = await call('GET', '/sandbox/clock', { key });
    expect(again.status).toBe(200);
    expect(headers(again.headers)[1]).toBe('0');
    expect((await call('GET', '/sandbox/clock', { key })).status).toBe(429);
  });

  it('puts the headers on a 401, a 404 and a public call, all from the address bucket', async () => {
    const { call } = setup();
    const bad = await call('GET', '/sandbox/clock', { key: 'ck_test_unknown' });
    expect(bad.status).toBe(401);
    expect(headers(bad.headers)).toEqual(['60', '59', '1']);
    const live = await call('GET', '/sandbox/clock', { key: 'ck_live_abcdef' });
    expect(live.status).toBe(401);
    expect(headers(live.headers)[1]).toBe('58');
    const missing = await call('GET', '/nowhere', { key: null });
    expect(missing.status).toBe(404);
    expect(headers(missing.headers)[1]).toBe('57');
    const pub = await call('GET', '/markets', { key: null });
    expect(pub.status).toBe(200);
    expect(headers(pub.headers)[1]).toBe('56');
  });

  it('answers public callers past 60 with the "too many requests" body', async () => {
    const { call } = setup();
    for (let i = 0; i < 60; i++) expect((await call('GET', '/markets', { key: null })).status).toBe(200);
    const r = await call('GET', '/markets', { key: null });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: { code: 'rate_limit_exceeded', message: 'too many requests' } });
    expect(r.headers.get('Retry-After')).toBe('1');
  });
});
