import { describe, expect, it } from 'vitest';
import { defaultProfile, errorBody, parseProfile, type Profile } from '../../contract/index.ts';
import { json, toResponse } from '../answer/answer.ts';
import { createDispatch, type Route } from '../pipeline/dispatch.ts';
import { ApiError } from '../answer/errors.ts';
import { FetchRequest, type SandboxRequest } from '../pipeline/request.ts';
import { compileRouter } from '../../contract/router.ts';
import type { Stage } from '../pipeline/stage.ts';
import type { KeyInfo, SandboxContext } from '../plugins.ts';
import { rateLimitPlugin } from './plugin.ts';

// A stand-in for the core: the sandbox's pipeline with the plugin's stage, and routes whose
// auth step 401s bad keys.
const KEYS: Record<string, KeyInfo> = {
  ck_test_starter: { keyId: 'k1', partnerId: 'a', tier: 'starter' },
  ck_test_untiered: { keyId: 'k2', partnerId: 'a', tier: '' },
};

function harness(profile: Profile = defaultProfile) {
  let now = 0;
  const ctx = { profile } as unknown as SandboxContext;
  const stage = rateLimitPlugin({ now: () => now, wallNow: () => 1_700_000_000_000 + now, clientAddress: (req) => req.header('x-test-addr') ?? '127.0.0.1' }).stage!(ctx);
  const auth = (req: SandboxRequest) => {
    const key = /^Bearer (.+)$/.exec(req.header('authorization') ?? '')?.[1];
    if (!key || !KEYS[key]) throw new ApiError('authentication_failed', 'Authorization: invalid API key', 401);
  };
  const router = compileRouter<Route>([
    { method: 'GET', path: '/v1/markets', value: { endpoint: () => 'public.markets', run: () => json({ markets: [] }) } },
    { method: 'GET', path: '/v1/positions/{id}', value: { endpoint: () => 'position.get', run: (req, [id]) => (auth(req), json({ positionId: id })) } },
  ]);
  // The caller stage's part (auth/bearer.ts identify), for these keys.
  const caller: Stage = (req, next) => {
    const key = /^Bearer (.+)$/.exec(req.header('authorization') ?? '')?.[1];
    if (key && KEYS[key]) req.partner = KEYS[key];
    return next();
  };
  const dispatch = createDispatch({ router, stages: [caller, stage], profile, pendingCommit: () => undefined, onInternalError: (e) => { throw e; } });
  return {
    step: (ms: number) => (now += ms),
    get: async (path: string, headers: Record<string, string> = {}) => toResponse(await dispatch(new FetchRequest(new Request(`http://sandbox${path}`, { headers }), undefined))),
  };
}

const limits = (r: Response) => ({
  limit: r.headers.get('X-RateLimit-Limit'),
  remaining: r.headers.get('X-RateLimit-Remaining'),
  reset: r.headers.get('X-RateLimit-Reset'),
});

describe('rate-limit stage', () => {
  it('puts the headers on a success, then on the 429 with Retry-After and the error body', async () => {
    const h = harness();
    const auth = { authorization: 'Bearer ck_test_starter' };
    const first = await h.get('/v1/positions/p1', auth);
    expect(first.status).toBe(200);
    expect(limits(first)).toEqual({ limit: '100', remaining: '99', reset: '1' });
    for (let i = 1; i < 100; i++) expect((await h.get('/v1/positions/p1', auth)).status).toBe(200);
    const r = await h.get('/v1/positions/p1', auth);
    expect(r.status).toBe(429);
    expect(limits(r)).toEqual({ limit: '100', remaining: '0', reset: '100' });
    expect(r.headers.get('Retry-After')).toBe('1');
    const body = errorBody.parse(await r.json());
    expect(body.error.code).toBe('rate_limit_exceeded');
    expect(body.error.message).toMatch(/starter/);
    h.step(1000);
    expect((await h.get('/v1/positions/p1', auth)).status).toBe(200);
  });

  it('carries the headers on a 401 and counts bad keys per client address under the public rule', async () => {
    const h = harness();
    const r = await h.get('/v1/positions/p1', { authorization: 'Bearer ck_test_nope' });
    expect(r.status).toBe(401);
    expect(limits(r)).toEqual({ limit: '60', remaining: '59', reset: '1' });
    const pub = await h.get('/v1/markets');
    expect(limits(pub).remaining).toBe('58');
  });

  it('reads the key as auth does: a valid key after a tab is refused, so it draws from the public bucket', async () => {
    // Auth (auth/bearer.ts) takes "Bearer" and spaces only; the limiter once also took a
    // tab, and a header auth refused then drew from the key's own bucket.
    const h = harness();
    const r = await h.get('/v1/positions/p1', { authorization: 'Bearer\tck_test_starter' });
    expect(limits(r)).toEqual({ limit: '60', remaining: '59', reset: '1' });
  });

  it('limits public endpoints to 60/min per address with the "too many requests" body', async () => {
    const h = harness();
    for (let i = 0; i < 60; i++) expect((await h.get('/v1/markets')).status).toBe(200);
    const r = await h.get('/v1/markets');
    expect(r.status).toBe(429);
    expect(await r.json()).toEqual({ error: { code: 'rate_limit_exceeded', message: 'too many requests' } });
    expect(r.headers.get('Retry-After')).toBe('1');
    // Another address has its own bucket.
    expect((await h.get('/v1/markets', { 'x-test-addr': '127.0.0.2' })).status).toBe(200);
  });

  it('gives an untiered key the default tier (growth)', async () => {
    const r = await harness().get('/v1/positions/p1', { authorization: 'Bearer ck_test_untiered' });
    expect(limits(r)).toEqual({ limit: '500', remaining: '499', reset: '1' });
  });

  it('follows the profile units for Limit and Reset', async () => {
    const p = parseProfile({ limits: { limitHeader: 'per-minute', resetUnit: 'unix-seconds' } });
    const h = harness(p);
    h.step(250);
    const r = await h.get('/v1/positions/p1', { authorization: 'Bearer ck_test_starter' });
    // Full again 1000 ms after the request: wall time 1_700_000_000_250 + 1000 ms, rounded up.
    expect(limits(r)).toEqual({ limit: '60', remaining: '99', reset: '1700000002' });
    const ms = harness(parseProfile({ limits: { resetUnit: 'unix-ms' } }));
    expect(limits(await ms.get('/v1/markets')).reset).toBe('1700000001000');
  });
});
