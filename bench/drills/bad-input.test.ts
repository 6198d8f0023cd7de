import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { badInputDrill } from './bad-input.ts';

// Issue 9's bad-input drill, short enough to be a test: 10,000 generated bad requests
// over real HTTP. Rate limits are off so every request reaches validation.
describe('bad-input drill', () => {
  let srv: SandboxServer;
  beforeAll(async () => {
    srv = await startSandboxServer({ port: 0, plugins: defaultPlugins({ rateLimits: false, webhooks: false }) });
  });
  afterAll(async () => srv?.close());

  it('10,000 bad requests: zero 5xx, zero hangs, every error carries the error object', async () => {
    const t = await badInputDrill(srv.url, 'ck_test_partner_a_scale', 10_000, { seed: 9, concurrency: 16 });
    expect(t.sent).toBe(10_000);
    expect(Object.keys(t.byClass).length).toBeGreaterThanOrEqual(7);
    expect({ fiveXx: t.fiveXx, hangs: t.hangs, missingErrorObject: t.missingErrorObject, examples: t.examples }).toEqual({
      fiveXx: 0,
      hangs: 0,
      missingErrorObject: 0,
      examples: [],
    });
  }, 180_000);
});

describe('bad-input drill against a faulty server', () => {
  it('counts 5xx, hangs and bare errors, so the drill can fail', async () => {
    // 500 on POST, a hang on PATCH, a bare-text 400 on GET: each must show in the tally.
    const server = http.createServer((req, res) => {
      req.resume();
      if (req.method === 'PATCH') return;
      if (req.method === 'POST') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":"internal_error","message":"boom"}}');
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const t = await badInputDrill(`http://127.0.0.1:${port}/v1`, 'ck_test_partner_a_scale', 300, { seed: 3, concurrency: 16, timeoutMs: 300 });
      expect(t.fiveXx).toBeGreaterThan(0);
      expect(t.hangs).toBeGreaterThan(0);
      expect(t.missingErrorObject).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);
});
