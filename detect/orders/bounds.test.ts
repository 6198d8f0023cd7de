import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX, defaultProfile, parseProfile, routeOf } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { HttpClient } from '../../conformance/http.ts';
import { boundsDetector, FAR } from './bounds.ts';
import { detectProfile } from '../index.ts';
import { Probe } from '../probe.ts';

// The bounds the spec does not give: read from a refusal's message and checked at its edge,
// searched for when the message names none, and null (no bound stated) when the far value is
// taken or nothing could be tried.

/** A target whose refusals name no figure: rates from 3 up and depths past 37 are refused. */
function quietTarget(): Server {
  return createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    // The endpoint asked, through the contract's one router (never a pattern over the URL).
    const id = routeOf(defaultProfile, req.method ?? 'GET', u.pathname.slice(API_VERSION_PREFIX.length), Boolean(req.headers.authorization))?.id;
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const refuse = (field: string) => send(400, { error: { code: 'invalid_request', message: `${field} not allowed` } });
    if (id === 'orderbook.get') return Number(u.searchParams.get('depth')) > 37 ? refuse('depth') : send(200, { lends: [], borrows: [] });
    if (id === 'lend.create') {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => ((JSON.parse(raw) as { rate: number }).rate >= 3 ? refuse('rate') : send(201, { positionId: 'p1', status: 'pending' })));
      return;
    }
    if (id === 'position.cancel') return send(200, { positionId: 'p1', status: 'cancelled' });
    send(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

describe('bounds detection', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = quietTarget().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('searches for the depth maximum when the refusal names none, and states only a refusal seen for the rate', async () => {
    const http = new HttpClient({ baseUrl: base });
    const p = new Probe(http, { key: 'ck_test_k', maxRequests: 60, runId: 't' });
    await boundsDetector.run(p);
    await http.close();
    expect(p.found.get('bounds.orderbookMaxDepth')?.value).toBe(37);
    // 1 taken, FAR refused, nothing named: the document may say "below FAR", never less.
    expect(p.found.get('bounds.rateBelow')?.value).toBe(FAR);
    expect(p.used).toBeLessThan(30);
  });

  it('reads named bounds at their edge, and null where the far value is taken, from the sandbox', { timeout: 60_000 }, async () => {
    const sb = await startSandboxServer({ profile: parseProfile({ bounds: { rateBelow: null, orderbookMaxDepth: 250 } }), controls: false, validateResponses: false });
    try {
      // The bounds come after the searches every borrow needs (index.ts DETECTORS), about 95 requests in.
      const d = await detectProfile({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 120 });
      expect(d.options['bounds.rateBelow']).toMatchObject({ detected: true, value: null });
      expect(d.options['bounds.orderbookMaxDepth']).toMatchObject({ detected: true, value: 250 });
      expect(d.merged.bounds).toEqual({ rateBelow: null, orderbookMaxDepth: 250 });
    } finally {
      await sb.close();
    }
  });

  it('states no bound (null, not the sandbox default) when detection could not try one', { timeout: 60_000 }, async () => {
    const sb = await startSandboxServer({ controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 20 });
      expect(d.options['bounds.rateBelow']).toMatchObject({ detected: false, value: null, reason: expect.stringMatching(/budget .*no bound is stated/) });
      expect(d.merged.bounds).toEqual({ rateBelow: null, orderbookMaxDepth: null });
    } finally {
      await sb.close();
    }
  });
});
