import { describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import { sandboxOptions } from './start.ts';

// startSandbox from the package (a vitest globalSetup's way in): the CLI's sandbox on a port,
// through the same options mapping as `lendcheck sandbox`.

describe('startSandbox', () => {
  it('serves the sandbox on a free loopback port with the test keys, and closes', async () => {
    const s = await startSandbox({ port: 0, rateLimits: false });
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(s.keys.map((k) => k.partnerId)).toContain('partner_b');
      const r = await fetch(`${s.url}/users/u1/positions`, { headers: { authorization: `Bearer ${s.keys[1]!.key}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit'), 'rate limits off as asked').toBeNull();
      const lend = await s.sandbox.fetch(new Request(`${s.url}/lend`, { method: 'POST', headers: { authorization: `Bearer ${s.keys[1]!.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ userId: 'u1', asset: 'USDC', amount: '10', rate: 0.05, maturity: '30d' }) }));
      expect(lend.status, 'the handle reaches the same state').toBe(201);
      expect(((await (await fetch(`${s.url}/users/u1/positions`, { headers: { authorization: `Bearer ${s.keys[1]!.key}` } })).json()) as { positions: unknown[] }).positions).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('maps the CLI options onto plugins one way', () => {
    const names = (o: Parameters<typeof sandboxOptions>[0]) => sandboxOptions(o).plugins!.map((p) => p.name);
    expect(names({})).toEqual(['rate-limits', 'webhooks', 'openapi']);
    expect(names({ rateLimits: false, metrics: true, console: true, testDelay: 'rates.get=5' })).toEqual(['metrics', 'webhooks', 'openapi', 'console', 'test-delay']);
    expect(sandboxOptions({ liquidity: false }).liquidity).toEqual({ enabled: false, delaySeconds: 0 });
    expect(sandboxOptions({ controls: false }).controls).toBe(false);
  });
});
