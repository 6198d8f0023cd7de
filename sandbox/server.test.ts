import { describe, expect, it } from 'vitest';
import { TestClock } from './engine/clock.ts';
import { describeEndpoints } from './testing/endpoints/endpoints.suite.ts';
import type { SandboxPlugin } from './pipeline/plugin.ts';
import { startSandboxServer } from './server.ts';
import { caller, START_MS } from './testing/helpers.ts';

async function start(plugins: SandboxPlugin[] = []) {
  return startSandboxServer({
    port: 0,
    clock: new TestClock({ startMs: START_MS, realNow: () => 0 }),
    liquidity: { enabled: false, delaySeconds: 5 },
    tickMs: 0,
    validateResponses: true,
    plugins,
  });
}

describeEndpoints('over HTTP', async () => {
  const s = await start();
  return { call: caller(s.url), close: () => s.close() };
});

describe('startSandboxServer', () => {
  it('listens on loopback with a base URL ending in /v1 and passes the client address to the app', async () => {
    let seen: string | undefined;
    const probe: SandboxPlugin = {
      name: 'addr',
      routes: () => [
        {
          method: 'GET',
          path: '/v1/__addr',
          handle: ({ req }) => {
            seen = req.clientAddress;
            return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
          },
        },
      ],
    };
    const s = await start([probe]);
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(s.port).toBeGreaterThan(0);
      expect(s.keys.map((k) => k.key)).toContain('ck_test_partner_b_growth');
      await fetch(`${s.url}/__addr`);
      expect(seen).toMatch(/127\.0\.0\.1/);
    } finally {
      await s.close();
    }
  });

  it('checks the streamed length of a chunked body as well as a declared one', async () => {
    const s = await start();
    try {
      const chunked = (text: string) =>
        fetch(`${s.url}/lend`, {
          method: 'POST',
          headers: { authorization: 'Bearer ck_test_partner_a_growth', 'content-type': 'application/json' },
          body: new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(text)); c.close(); } }),
          duplex: 'half',
        } as RequestInit);
      const big = await chunked(`{"pad":"${'x'.repeat(70_000)}"}`);
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: { message: string } }).error.message).toMatch(/^body: larger than/);
      const ok = await chunked(JSON.stringify({ userId: 'c', asset: 'USDC', amount: '5', rate: 0.05 }));
      expect(ok.status).toBe(201);
    } finally {
      await s.close();
    }
  });

  it('closes twice without error and frees the port', async () => {
    const s = await start();
    await s.close();
    await s.close();
    await expect(fetch(`${s.url}/markets`)).rejects.toThrow();
  });
});
