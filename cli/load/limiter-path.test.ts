import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitProbePath, parseProfile } from '../../contract/index.ts';
import { limiterPathNotKeyed } from './limiter-path.ts';
import { runLoad } from './run.ts';

// The tier runs measure a key's bucket through a keyed read; with the rates path unknown, the
// authenticated order book stands in, whose template the public order book shares. A target
// serving it without a key would have the tiers measured on the public bucket (issue 47, cause 1).

/** A target whose order books answer anyone (public), and whose /quotes refuses a missing key. */
function target(): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (/^\/v1\/markets\/[^/]+\/orderbook$/.test(path)) return send(200, { lends: [], borrows: [] });
    if (path === '/v1/quotes' && !req.headers.authorization) return send(401, { error: { code: 'authentication_failed', message: 'no key' } });
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

  it('takes a path refused without a key, and names the option when the stand-in answers anyone', async () => {
    expect(await limiterPathNotKeyed(base, parseProfile({ ratesPath: '/quotes' }))).toBeUndefined();
    const unknown = parseProfile({ ratesPath: null });
    expect(limitProbePath(unknown)).toMatch(/orderbook$/);
    expect(await limiterPathNotKeyed(base, unknown)).toMatch(/ratesPath null.*answered 200 without a key.*public bucket.*ratesPath in the profile file/);
  });

  it('skips the rate-limit run with that reason before k6 starts, never measuring the public bucket', async () => {
    const r = await runLoad({ scenario: 'rate-limit', tier: 'growth', baseUrl: base, apiKey: 'ck_test_k', smoke: true, profile: parseProfile({ ratesPath: null }), reportDir: mkdtempSync(join(tmpdir(), 'lc-limiter-')) });
    expect(r.status).toBe('skipped');
    expect(r.skipReason).toMatch(/public bucket/);
    expect(r.checks).toEqual([expect.objectContaining({ status: 'skipped', skipKind: 'run-lacks' })]);
  });
});
