import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitProbe, parseProfile, routeOf } from '../../contract/index.ts';
import { limiterPathNotKeyed } from './limiter-path.ts';
import { runLoad } from './run.ts';

// The tier runs measure a key's bucket through a keyed read; with the rates path unknown, the
// authenticated order book stands in, whose template the public order book shares. A target
// serving it without a key would have the tiers measured on the public bucket (issue 47, cause 1).

/**
 * A target whose order books answer anyone: from one shared bucket (`/v1/shared/...`: the public
 * limit and Remaining whoever asks), or with the key's own limit when a key is given. /quotes
 * refuses a missing key.
 */
const QUOTES = parseProfile({ ratesPath: '/quotes' });

function target(): Server {
  let publicLeft = 100;
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const keyed = !!req.headers.authorization;
    const send = (status: number, body: unknown, h: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...h }).end(JSON.stringify(body));
    // /v1/<kind>/… : the kind of target, then the path under /v1, routed by the contract's one router.
    const [, , kind = '', ...rest] = path.split('/');
    const own = kind === 'own';
    const id = routeOf(QUOTES, req.method ?? 'GET', `/${rest.join('/')}`, keyed)?.id;
    if (id === 'orderbook.get' || id === 'public.orderbook') {
      if (own && keyed) return send(200, { lends: [], borrows: [] }, { 'x-ratelimit-limit': '500', 'x-ratelimit-remaining': '499' });
      publicLeft--;
      return send(200, { lends: [], borrows: [] }, kind === 'bare' ? {} : { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': String(publicLeft) });
    }
    if (kind === 'quotes' && !keyed) return send(401, { error: { code: 'authentication_failed', message: 'no key' } });
    send(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

describe('the limiter path of the tier runs', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = target().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('takes a path refused without a key, or one whose keyed answers come from another bucket; else names the option', { timeout: 30_000 }, async () => {
    expect(await limiterPathNotKeyed(base, parseProfile({ ratesPath: '/quotes' }), 'ck_test_k')).toBeUndefined();
    const unknown = parseProfile({ ratesPath: null });
    expect(limitProbe(unknown)).toEqual({ id: 'orderbook.get', params: { asset: unknown.assets.borrow[0] } });
    expect(await limiterPathNotKeyed(`${base}/own`, unknown, 'ck_test_k')).toBeUndefined();
    expect(await limiterPathNotKeyed(`${base}/shared`, unknown, 'ck_test_k')).toMatch(/ratesPath null.*answered 200 without a key.*public bucket.*ratesPath in the profile file/);
    expect(await limiterPathNotKeyed(`${base}/bare`, unknown, 'ck_test_k')).toMatch(/no X-RateLimit-Remaining/);
  });

  it('skips the rate-limit run with that reason before k6 starts, never measuring the public bucket', { timeout: 30_000 }, async () => {
    const r = await runLoad({ scenario: 'rate-limit', tier: 'growth', baseUrl: `${base}/shared`, apiKey: 'ck_test_k', smoke: true, profile: parseProfile({ ratesPath: null }), reportDir: mkdtempSync(join(tmpdir(), 'lc-limiter-')) });
    expect(r.status).toBe('skipped');
    expect(r.skipReason).toMatch(/public bucket/);
    expect(r.checks).toEqual([expect.objectContaining({ status: 'skipped', skipKind: 'run-lacks' })]);
  });
});
