import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX } from '../../contract/index.ts';
import { HttpClient } from '../../conformance/http.ts';
import { Probe } from '../probe.ts';
import { ratesDetector } from './rates.ts';

// The get-rates path is in the spec's authenticated table; GET /markets/rates is in its public
// one. A candidate is taken only when it answers a rates body with the key and is refused
// without it (issue 47, cause 1: the public /markets/rates was taken, being the last candidate).

const RATES = { rates: [{ asset: 'USDC', maturity: '30d', lendRate: 0.05, borrowRate: 0.07, spread: 0.02 }], timestamp: '2026-11-28T00:00:00Z' };
const HEADERS = { 'content-type': 'application/json', 'x-ratelimit-limit': '500', 'x-ratelimit-remaining': '499', 'x-ratelimit-reset': '1' };

/** Rates at `publicPaths` for anyone, at `keyedPaths` only with a key (401 without). */
function target(publicPaths: string[], keyedPaths: string[]): Server {
  return createServer((req, res) => {
    // Candidate paths (not endpoints of the table) under the version prefix, compared whole.
    const path = new URL(req.url ?? '/', 'http://x').pathname.slice(API_VERSION_PREFIX.length);
    const send = (status: number, body: unknown) => res.writeHead(status, HEADERS).end(JSON.stringify(body));
    if (req.method === 'GET' && publicPaths.includes(path)) return send(200, RATES);
    if (req.method === 'GET' && keyedPaths.includes(path)) return req.headers.authorization ? send(200, RATES) : send(401, { error: { code: 'authentication_failed', message: 'no key' } });
    send(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function detect(publicPaths: string[], keyedPaths: string[]): Promise<Probe> {
  server = target(publicPaths, keyedPaths).listen(0, '127.0.0.1');
  await new Promise((r) => server!.once('listening', r));
  const http = new HttpClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
  const p = new Probe(http, { key: 'ck_test_k', maxRequests: 60, runId: 't' });
  await ratesDetector.run(p);
  await http.close();
  return p;
}

describe('rates path detection: only an authenticated one', () => {
  it('never takes the public GET /markets/rates: with no other, the path is unknown and the reason names the option', async () => {
    const p = await detect(['/markets/rates'], []);
    expect(p.found.has('ratesPath')).toBe(false);
    expect(p.facts.has('ratesPath')).toBe(false);
    expect(p.missed.get('ratesPath')).toMatch(/\/markets\/rates is the spec's public endpoint, never taken.*ratesPath in the profile/);
  });

  it('passes over a candidate that answers rates without a key too (public), and takes a later one refused without it', async () => {
    const p = await detect(['/markets/rates', '/rates'], ['/interest-rates']);
    expect(p.found.get('ratesPath')?.value).toBe('/interest-rates');
    expect(p.found.get('ratesPath')?.note).toMatch(/401 without one/);
  });

  it('with only public rates candidates, says which answered without a key', async () => {
    const p = await detect(['/rates'], []);
    expect(p.found.has('ratesPath')).toBe(false);
    expect(p.missed.get('ratesPath')).toMatch(/\/rates answered one without a key too/);
  });
});
