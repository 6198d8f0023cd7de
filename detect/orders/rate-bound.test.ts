import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX, defaultProfile, parseProfile, routeOf } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { HttpClient } from '../../conformance/http.ts';
import { detectProfile } from '../index.ts';
import { Probe } from '../probe.ts';
import { probeRate, rateBound } from './rate-bound.ts';

// Issue 47, the mutator's seed 12: a target refusing rates from 0.5 up refused detection's
// resting lends at a fixed 0.5, so detection stated no bound and learnt nothing of orders. The
// search now covers bounds below 1 (read from the message, else searched down to 0.05), and
// detection's resting lends ask below what it found.

/** Lends asking `at` or more are refused naming rate, the figure in the message or not. */
function target(at: number, naming: boolean): Server {
  return createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    // The endpoint asked, through the contract's one router (never a pattern over the URL).
    const id = routeOf(defaultProfile, req.method ?? 'GET', u.pathname.slice(API_VERSION_PREFIX.length), Boolean(req.headers.authorization))?.id;
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (id === 'lend.create') {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => ((JSON.parse(raw) as { rate: number }).rate >= at ? send(400, { error: { code: 'invalid_request', message: naming ? `rate: must be below ${at}` : 'rate: too high' } }) : send(201, { positionId: 'p1', status: 'pending' })));
      return;
    }
    if (id === 'position.cancel') return send(200, { positionId: 'p1', status: 'cancelled' });
    send(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function probeOf(at: number, naming: boolean, maxRequests = 40): Promise<{ p: Probe; http: HttpClient }> {
  server = target(at, naming).listen(0, '127.0.0.1');
  await new Promise((r) => server!.once('listening', r));
  const http = new HttpClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
  return { p: new Probe(http, { key: 'ck_test_k', maxRequests, runId: 't' }), http };
}

describe('the rate bound below 1', () => {
  it('is read from a refusal naming it, checked at its edge, and the probes rest below it', async () => {
    const { p, http } = await probeOf(0.5, true);
    await rateBound(p);
    await http.close();
    expect(p.found.get('bounds.rateBelow')).toMatchObject({ value: 0.5, confidence: 'high' });
    expect(probeRate(p)).toBeLessThan(0.5);
    expect(p.used).toBeLessThanOrEqual(5);
  });

  it('is read as 1 from a refusal of 1 naming 1, in three requests', async () => {
    const { p, http } = await probeOf(1, true);
    await rateBound(p);
    await http.close();
    expect(p.found.get('bounds.rateBelow')).toMatchObject({ value: 1, confidence: 'high' });
    expect(probeRate(p)).toBe(0.5);
    expect(p.used).toBe(3);
  });

  it('lends as a user of its own, never the orders detector\'s (whose list of three lends is read for pagination)', async () => {
    const { p, http } = await probeOf(0.5, false);
    await rateBound(p);
    await http.close();
    const lends = p.seen.filter((s) => s.endpoint === 'lend.create');
    expect(lends.length).toBeGreaterThan(0);
    for (const s of lends) expect(JSON.parse(s.reply.exchange.requestBody ?? '{}')).toMatchObject({ userId: p.user('rate-bound') });
  });

  it('is searched for when the refusal names none: a refused rate is stated and the rate rested at was taken', async () => {
    for (const at of [0.5, 0.3, 0.07]) {
      const { p, http } = await probeOf(at, false);
      await rateBound(p);
      await http.close();
      await new Promise<void>((r) => server!.close(() => r()));
      server = undefined;
      const stated = p.found.get('bounds.rateBelow')?.value as number;
      expect(stated).toBeGreaterThanOrEqual(at);
      expect(stated - at).toBeLessThan(0.05);
      expect(probeRate(p)).toBeLessThan(at);
      expect(p.used).toBeLessThan(25);
    }
  });

  it('is left unstated, saying so, when every rate down to 0.05 is refused', async () => {
    const { p, http } = await probeOf(0.01, false);
    await rateBound(p);
    await http.close();
    expect(p.found.has('bounds.rateBelow')).toBe(false);
    expect(p.missed.get('bounds.rateBelow')).toMatch(/down to 0\.05 .*bounds\.rateBelow/);
  });

  it('is found on the sandbox under a bound of 0.5, and the orders detector then reads the lends', { timeout: 60_000 }, async () => {
    const sb = await startSandboxServer({ profile: parseProfile({ bounds: { rateBelow: 0.5 } }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 120 });
      expect(d.options['bounds.rateBelow']).toMatchObject({ detected: true, value: 0.5 });
      expect(d.options['successStatus.POST /lend']).toMatchObject({ detected: true });
      expect(d.options['pagination.order']).toMatchObject({ detected: true });
    } finally {
      await sb.close();
    }
  });
});
