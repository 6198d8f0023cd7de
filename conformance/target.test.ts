import { describe, expect, it } from 'vitest';
import { assertSafe, resolveTarget, UnsafeTargetError } from './target.ts';

describe('target', () => {
  it('takes flags over the environment and reads the rest from LENDCHECK_*', () => {
    const t = resolveTarget({ baseUrl: 'http://127.0.0.1:1/v1' }, { LENDCHECK_BASE_URL: 'http://x/v1', LENDCHECK_API_KEY: 'ck_test_a', LENDCHECK_ONLY: 'a, b', LENDCHECK_STRICT: '1' });
    expect(t.baseUrl).toBe('http://127.0.0.1:1/v1');
    expect(t.apiKey).toBe('ck_test_a');
    expect(t.only).toEqual(['a', 'b']);
    expect(t.strict).toBe(true);
  });

  it('resolves once: a resolved target is never read from the environment again, and survives a copy to the worker', () => {
    const t = resolveTarget({ apiKey: 'ck_test_flag' }, { LENDCHECK_ONLY: 'a', LENDCHECK_SEED: '7', LENDCHECK_KEY_TIERS: '{"key":"scale"}' });
    expect(resolveTarget(t, { LENDCHECK_API_KEY: 'ck_test_env', LENDCHECK_BASE_URL: 'http://x/v1', LENDCHECK_STRICT: '1' })).toBe(t);
    // What Vitest's provide hands to the worker is a structured clone: every field comes across as it was.
    expect(structuredClone(t)).toEqual(t);
    expect(t).toMatchObject({ resolved: true, apiKey: 'ck_test_flag', only: ['a'], seed: 7, keyTiers: { key: 'scale' }, strict: false });
  });

  it('refuses a ck_live_ key unless the run is read-only', () => {
    expect(() => assertSafe({ baseUrl: 'https://api.example/v1', apiKey: 'ck_live_abc' })).toThrow(UnsafeTargetError);
    expect(() => assertSafe({ baseUrl: 'https://api.example/v1', apiKey: 'ck_live_abc', readOnly: true })).not.toThrow();
    expect(() => assertSafe({ baseUrl: 'https://api.example/v1', apiKey: 'ck_test_abc', apiKey2: 'ck_live_x' })).toThrow(/read-only/);
  });

  it('never bursts a live key, even read-only, and needs a key with a base URL', () => {
    expect(() => assertSafe({ baseUrl: 'https://a/v1', apiKey: 'ck_live_a', burstKey: 'ck_live_b', readOnly: true })).toThrow(/exhaust/);
    expect(() => assertSafe({ baseUrl: 'https://a/v1' })).toThrow(/api-key/);
    expect(() => assertSafe({ baseUrl: 'ftp://a/v1', apiKey: 'ck_test_a' })).toThrow(/http/);
  });
});

describe('assertReachable', () => {
  /** A server whose first `closing` connections are closed on their request, unanswered; later ones answer 404. */
  async function closingServer(closing: number) {
    const { createServer } = await import('node:net');
    let n = 0;
    const server = createServer((sock) => {
      const close = n++ < closing;
      sock.on('data', () => (close ? sock.destroy() : sock.write('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', () => sock.end())));
      sock.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, close: () => server.close() };
  }

  it('asks once more on a new connection when one is closed unanswered (seeds 1 and 2 of the soak)', async () => {
    const { assertReachable } = await import('./target.ts');
    const s = await closingServer(1);
    try {
      await expect(assertReachable(s.base, 2_000)).resolves.toBeUndefined();
    } finally {
      s.close();
    }
  });

  it('still reports a target that closes every connection, naming the error', async () => {
    const { assertReachable } = await import('./target.ts');
    const s = await closingServer(100);
    try {
      await expect(assertReachable(s.base, 2_000)).rejects.toThrow(/target unreachable: .*(UND_ERR_SOCKET|ECONNRESET)/);
    } finally {
      s.close();
    }
  });
});
