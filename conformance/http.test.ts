import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, TransportError } from './http.ts';

// A real loopback server: msw cannot intercept undici's Agent.
let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits++;
      if (req.url?.startsWith('/v1/slow')) return void setTimeout(() => res.end('late'), 2_000);
      if (req.url?.startsWith('/v1/busy') && hits % 2 === 1) return void res.writeHead(429, { 'retry-after': '0' }).end('{}');
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo-auth': req.headers.authorization ?? '' });
      res.end(JSON.stringify({ url: req.url, body, secret: 'whsec_0123456789abcdef' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('HttpClient', () => {
  it('sends under the base path with query and JSON body, and records a redacted exchange', async () => {
    const c = new HttpClient({ baseUrl: base, secrets: ['ck_test_secret_key'] });
    try {
      const r = await c.request({ method: 'POST', path: '/lend', query: { a: 1, b: undefined }, body: { x: 'ck_test_secret_key' }, key: 'ck_test_secret_key' });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ url: '/v1/lend?a=1', body: '{"x":"ck_test_secret_key"}' });
      const ex = c.log[0];
      expect(ex.requestHeaders.authorization).toBe('Bearer ck_test_***');
      expect(JSON.stringify(ex)).not.toContain('secret_key');
      expect(JSON.stringify(ex)).not.toContain('0123456789abcdef');
      expect(ex.durationMs).toBeGreaterThanOrEqual(0);
    } finally {
      await c.close();
    }
  });

  it('gives up after the timeout with a TransportError that carries the exchange', async () => {
    const c = new HttpClient({ baseUrl: base });
    try {
      const e = await c.request({ method: 'GET', path: '/slow', timeoutMs: 200 }).catch((x) => x);
      expect(e).toBeInstanceOf(TransportError);
      expect((e as TransportError).exchange.status).toBeNull();
    } finally {
      await c.close();
    }
  });

  it('waits out one 429 unless told not to', async () => {
    const c = new HttpClient({ baseUrl: base });
    try {
      hits = 0;
      expect((await c.request({ method: 'GET', path: '/busy' })).status).toBe(200);
      hits = 0;
      expect((await c.request({ method: 'GET', path: '/busy', retry429: false })).status).toBe(429);
    } finally {
      await c.close();
    }
  });
});
