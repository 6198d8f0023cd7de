import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { http as mswHttp, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIGNATURE_HEADER } from '../../contract/index.ts';
import { verifyWebhook } from '../../signing/signature.ts';
import { createMswSandbox, type MswSandbox } from './index.ts';

// The msw way end to end, as a partner's test would use it: global fetch and node:https
// intercepted, state across requests, matching, maturity on the test clock, signed webhooks to
// an msw-intercepted partner URL and to a handler function, a retry proven idempotent, rate
// limits per tier on the test clock, and no listening socket anywhere.

const server = setupServer();
const listen = vi.spyOn(net.Server.prototype, 'listen');
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let sb: MswSandbox;
const open = (s: MswSandbox) => {
  sb = s;
  server.use(...s.handlers);
  return s;
};
afterEach(async () => sb?.close());

const call = async (method: string, path: string, key: string | undefined, body?: unknown) => {
  const res = await fetch(`${sb.baseUrl}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};
const lend = (userId: string) => ({ userId, asset: 'USDC', amount: '1000', rate: 0.05, maturity: '30d' });
const borrow = (userId: string) => ({ userId, collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '1000', rate: 0.06, maturity: '30d' });

describe('lendcheck/msw', () => {
  it('serves the engine through global fetch: a crossing borrow matches, maturity on the test clock', async () => {
    open(createMswSandbox());
    const key = sb.key('partner_a', 'growth');
    const l = await call('POST', '/lend', key, lend('u1'));
    expect(l.status, JSON.stringify(l.body)).toBe(201);
    expect(l.body.status).toBe('pending');
    const b = await call('POST', '/borrow', key, borrow('u2'));
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect((await call('GET', `/positions/${l.body.positionId}`, key)).body.status).toBe('active');
    await sb.clock.advance('31d');
    expect((await call('GET', `/positions/${l.body.positionId}`, key)).body.status).toMatch(/matured|rolled/);
  });

  it('intercepts the base URL and what lies below it, query and case aside, and nothing beside it', async () => {
    open(createMswSandbox());
    const key = sb.key();
    const get = (url: string) => fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect((await get(`${sb.baseUrl}/users/u1/positions?limit=1`)).status).toBe(200);
    // Answered by the sandbox (its 404: routes are case-sensitive), not left unhandled.
    expect((await get(`${sb.baseUrl.toUpperCase().replace('HTTPS', 'https')}/USERS/u1/positions`)).status).toBe(404);
    expect((await get(sb.baseUrl)).status).toBe(404);
    // A sibling path is not the sandbox's: msw finds no handler (onUnhandledRequest: 'error').
    await expect(get(`${sb.baseUrl}x/users/u1/positions`)).rejects.toThrow();
  });

  it('answers the spec errors: 401 without a key, 404 on an unknown route, 400 naming the field', async () => {
    open(createMswSandbox());
    expect((await call('GET', '/users/u1/positions', undefined)).body.error.code).toBe('authentication_failed');
    expect((await call('GET', '/nowhere', sb.key())).status).toBe(404);
    const bad = await call('POST', '/lend', sb.key(), { ...lend('u1'), amount: 'ten' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^amount\b/);
  });

  it('gives each sandbox its own state', async () => {
    const a = open(createMswSandbox());
    await call('POST', '/lend', a.key(), lend('u1'));
    await a.close();
    const b = open(createMswSandbox());
    expect((await call('GET', '/users/u1/positions', b.key())).body.positions).toHaveLength(0);
  });

  it('reaches node:https clients too', async () => {
    open(createMswSandbox());
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get(`${sb.baseUrl}/users/u1/positions`, { headers: { authorization: `Bearer ${sb.key()}` } }, (res) => {
          let t = '';
          res.on('data', (d) => (t += d)).on('end', () => resolve(`${res.statusCode} ${t}`));
        })
        .on('error', reject);
    });
    expect(body).toMatch(/^200 \{"positions":\[\]/);
  });

  it('signs webhooks to a partner URL msw intercepts, and retries on the test clock with the same event id', async () => {
    open(createMswSandbox({ retryDelaysMs: [60_000, 600_000] }));
    const key = sb.key('partner_a', 'growth');
    const got: Array<{ id: string; ok: boolean }> = [];
    let fail = true;
    const reg = await call('POST', '/webhooks', key, { url: 'https://partner.test/hooks', events: ['position.matched'] });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    server.use(
      mswHttp.post('https://partner.test/hooks', async ({ request }) => {
        const raw = await request.text();
        got.push({ id: (JSON.parse(raw) as { id: string }).id, ok: verifyWebhook(raw, request.headers.get(SIGNATURE_HEADER), reg.body.secret as string).ok });
        return fail ? new HttpResponse(null, { status: 500 }) : new HttpResponse(null, { status: 200 });
      }),
    );
    await call('POST', '/lend', key, lend('u1'));
    await call('POST', '/borrow', key, borrow('u2'));
    await sb.settle();
    // One position.matched per side (the lend and the borrow), each refused once.
    expect(got).toHaveLength(2);
    expect(got.every((g) => g.ok), 'signed with the subscription secret').toBe(true);
    fail = false;
    await sb.clock.advance('30s');
    expect(got, 'no retry before its delay').toHaveLength(2);
    await sb.clock.advance('1m');
    expect(got).toHaveLength(4);
    expect(new Set(got.slice(2).map((g) => g.id)), 'the retries carry the same event ids').toEqual(new Set(got.slice(0, 2).map((g) => g.id)));
    await sb.clock.advance('1h');
    expect(got, 'answered 200: not sent again').toHaveLength(4);
  });

  it('delivers straight to a handler function with onWebhook', async () => {
    open(createMswSandbox());
    const key = sb.key('partner_a', 'growth');
    await call('POST', '/webhooks', key, { url: 'https://partner.test/fn', events: ['position.created'] });
    const types: string[] = [];
    sb.onWebhook(async (req) => {
      types.push((JSON.parse(await req.text()) as { type: string }).type);
      return new Response(null, { status: 204 });
    });
    await call('POST', '/lend', key, lend('u1'));
    await sb.settle();
    expect(types).toEqual(['position.created']);
  });

  it('limits only the tiers asked for, on the test clock', async () => {
    open(createMswSandbox({ rateLimits: { tiers: ['starter'] } }));
    const starter = sb.key('partner_a', 'starter');
    const scale = sb.key('partner_a', 'scale');
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await call('GET', '/users/u1/positions', starter)).status);
    expect(statuses).toContain(429);
    const refused = await call('GET', '/users/u1/positions', starter);
    expect(refused.status).toBe(429);
    for (let i = 0; i < 120; i++) expect((await call('GET', '/users/u1/positions', scale)).status).toBe(200);
    await sb.clock.advance('2m');
    expect((await call('GET', '/users/u1/positions', starter)).status, 'the bucket refilled on the test clock').toBe(200);
  });

  it('lets a client cancel a refused body before its retry once attached (msw 2 would hang the cancel)', async () => {
    open(createMswSandbox({ rateLimits: { tiers: ['starter'] } }));
    const undo = sb.attach(server);
    const starter = sb.key('partner_a', 'starter');
    let res: Response | undefined;
    for (let i = 0; i < 120 && res?.status !== 429; i++) {
      res = await fetch(`${sb.baseUrl}/users/u1/positions`, { headers: { authorization: `Bearer ${starter}` } });
      if (res.status !== 429) await res.text();
    }
    expect(res?.status).toBe(429);
    const timedOut = Symbol('timed out');
    const settled = await Promise.race([res!.body!.cancel().then(() => 'cancelled'), new Promise((r) => setTimeout(r, 2_000, timedOut))]);
    undo();
    expect(settled, 'res.body.cancel() settled').toBe('cancelled');
  });

  it('opened no listening socket in this whole file', () => {
    expect(listen).not.toHaveBeenCalled();
    expect(http.globalAgent).toBeDefined();
  });
});
