import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultProfile } from '../../contract/index.ts';
import { buildOpenApi } from '../../contract/openapi/document.ts';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import { runContract, safeGets } from './contract-step.ts';
import type { GateTarget } from './target.ts';

const KEY = 'ck_test_partner_a_growth';
const target = (baseUrl: string, apiKey?: string): GateTarget => ({ baseUrl, label: baseUrl, embedded: false, apiKey, tierKeys: {}, hasControls: false, close: async () => {} });

/** A target answering each path from a table (404 elsewhere). */
async function fake(routes: Record<string, [number, unknown]>): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    const [status, body] = routes[req.url ?? ''] ?? [404, { error: { code: 'NOT_FOUND' } }];
    res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

describe('the contract step checks the target, not lendcheck\'s files', () => {
  let sandbox: SandboxServer;
  beforeAll(async () => {
    sandbox = await startSandboxServer({ port: 0, plugins: defaultPlugins({ rateLimits: false, webhooks: false }) });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('passes the reference sandbox: every safe GET parses with its schema, and its served OpenAPI holds every operation', async () => {
    const r = await runContract({ target: target(sandbox.url, KEY), profile: defaultProfile });
    const shapes = r.checks.filter((c) => c.id.startsWith('answer-shape'));
    expect(shapes.map((c) => c.id)).toEqual(safeGets(defaultProfile, true).map((e) => `answer-shape ${e.id}`));
    expect(shapes.filter((c) => c.status !== 'passed')).toEqual([]);
    expect(r.checks.find((c) => c.id === 'target-openapi')).toMatchObject({ status: 'passed' });
    expect(r.status).toBe('passed');
    // Without a key only the public GETs are asked.
    const pub = await runContract({ target: target(sandbox.url), profile: defaultProfile });
    expect(pub.checks.some((c) => c.id === 'answer-shape rates.get')).toBe(false);
    expect(pub.status).toBe('passed');
  });

  it('fails a body outside the contract, a 5xx, and non-JSON, with expected / received', async () => {
    const { base, server } = await fake({
      '/v1/markets': [200, { markets: 'none' }],
      '/v1/vaults': [500, { error: 'boom' }],
      '/v1/markets/rates': [200, '<html>'],
    });
    try {
      const r = await runContract({ target: target(base), profile: defaultProfile });
      const by = (id: string) => r.checks.find((c) => c.id === `answer-shape ${id}`)!;
      // Each failure names the requirement whose sentence binds it (issue 47).
      expect(by('public.markets')).toMatchObject({ status: 'failed', message: 'expected a body matching the spec schema / received markets: Invalid input: expected array, received string in {"markets":"none"} (SHAPE-market)' });
      expect(by('public.markets').exchange?.status).toBe(200);
      expect(by('public.vaults')).toMatchObject({ status: 'failed', message: 'expected 200 / received 500' });
      expect(by('public.rates')).toMatchObject({ status: 'failed', message: expect.stringMatching(/^expected a JSON body/) });
      expect(by('public.tvl')).toMatchObject({ status: 'skipped', message: expect.stringMatching(/^answered 404, not a 2xx \(profile: 200\)/) });
      expect(r.status).toBe('failed');
    } finally {
      server.close();
    }
  });

  it('passes foreign bodies wherever the spec shows none, and still fails a spec-shown violation (issue 38)', async () => {
    const ts = '2026-01-01T00:00:00Z';
    const wrap = (data: unknown) => ({ data, timestamp: ts });
    // Another correct service: its own field names at every "not shown" body, the spec's bodies as shown.
    const foreign = {
      '/v1/rates': [200, { rates: [{ asset: 'USDC', maturity: '30d', lendRate: 0.04, borrowRate: 0.05, spread: 0.01 }], timestamp: ts }],
      '/v1/webhooks': [200, { items: [{ subscriptionRef: 'sub_1', target: 'https://x', topics: ['position.created'] }], total: 1 }],
      '/v1/markets': [200, { markets: [] }],
      '/v1/markets/rates': [200, wrap({ quotes: { USDC: { '30d': 0.04 } } })],
      '/v1/analytics/tvl': [200, wrap({ series: [[1767225600, '1000']], unit: 'USD' })],
      '/v1/analytics/volume': [200, wrap([{ at: ts, total: '5' }])],
      '/v1/analytics/rates': [200, wrap({ history: [], asOf: ts })],
      '/v1/vaults': [200, wrap({ items: [{ slug: 'usdc-30', yield: 0.04 }] })],
    } satisfies Record<string, [number, unknown]>;
    const ok = await fake(foreign);
    // The same, with two spec-shown violations and one of a field part 2 names.
    const bad = await fake({ ...foreign, '/v1/rates': [200, { rates: [{ asset: 'USDC' }], timestamp: ts }], '/v1/markets': [200, { markets: [{ id: 1 }] }], '/v1/analytics/tvl': [200, wrap({ createdAt: 1767225600 })] });
    try {
      const r = await runContract({ target: target(ok.base, KEY), profile: defaultProfile });
      const shapes = r.checks.filter((c) => c.id.startsWith('answer-shape'));
      expect(shapes.map((c) => [c.id, c.status, c.message])).toEqual(safeGets(defaultProfile, true).map((e) => [`answer-shape ${e.id}`, 'passed', undefined]));
      const b = await runContract({ target: target(bad.base, KEY), profile: defaultProfile });
      const by = (id: string) => b.checks.find((c) => c.id === `answer-shape ${id}`)!;
      expect(by('rates.get')).toMatchObject({ status: 'failed', message: expect.stringMatching(/^expected a body matching the spec schema \/ received rates\.0\.maturity/) });
      expect(by('public.markets')).toMatchObject({ status: 'failed', message: expect.stringMatching(/^expected a body matching the spec schema \/ received markets\.0\.id/) });
      // A field part 2 types for a position, in a body the spec does not show: advice with its evidence, not a failure (issue 47).
      expect(by('public.tvl')).toMatchObject({ status: 'passed', advisories: [expect.objectContaining({ requirement: 'CONV-timestamp-utc', received: expect.stringMatching(/^createdAt: Invalid input: expected string, received number/), evidence: 'GET /analytics/tvl → 200' })] });
      expect(by('webhooks.list').status).toBe('passed');
    } finally {
      ok.server.close();
      bad.server.close();
    }
  });

  it('compares the target\'s own OpenAPI with the exported one, parameter names and the /v1 prefix aside', async () => {
    const ours = buildOpenApi(defaultProfile) as { paths: Record<string, Record<string, unknown>> };
    // Theirs: /v1 in the paths, {id} where lendcheck says {positionId}, sandbox controls absent.
    const paths: Record<string, unknown> = {};
    for (const [p, ops] of Object.entries(ours.paths)) if (!p.startsWith('/sandbox')) paths[`/v1${p.replace('{positionId}', '{id}')}`] = ops;
    const complete = await fake({ '/v1/openapi.json': [200, { openapi: '3.0.3', paths }] });
    const lacking = { ...paths };
    delete lacking['/v1/lend'];
    const partial = await fake({ '/openapi.json': [200, { openapi: '3.0.3', paths: lacking }] });
    try {
      const ok = await runContract({ target: target(complete.base), profile: defaultProfile });
      expect(ok.checks.find((c) => c.id === 'target-openapi')!.status).toBe('passed');
      // Nothing else answered: the OpenAPI check alone is evidence enough for a pass.
      expect(ok.status).toBe('passed');
      const bad = await runContract({ target: target(partial.base), profile: defaultProfile });
      // Each difference is its own finding, naming the operation and the field.
      expect(bad.checks.find((c) => c.id === 'target-openapi POST /lend (operation)')).toMatchObject({ status: 'failed', message: "expected the operation (spec part 4, under the profile) / received no such operation in the target's document" });
      expect(bad.checks.find((c) => c.id === 'target-openapi')).toMatchObject({ status: 'failed', message: 'expected no difference / received 1 (each a check above)' });
    } finally {
      complete.server.close();
      partial.server.close();
    }
  });

  it('a sandbox without the openapi plugin serves no document: a stated skip', async () => {
    const bare = await startSandboxServer({ port: 0, plugins: [] });
    try {
      const r = await runContract({ target: target(bare.url, KEY), profile: defaultProfile });
      expect(r.checks.find((c) => c.id === 'target-openapi')).toMatchObject({ status: 'skipped', message: expect.stringMatching(/serves no OpenAPI JSON/) });
    } finally {
      await bare.close();
    }
  });

  it('checks nothing on a target that answers nothing: skipped with the reason, never passed', async () => {
    const { base, server } = await fake({});
    try {
      const r = await runContract({ target: target(base, KEY), profile: defaultProfile });
      expect(r.status).toBe('skipped');
      expect(r.skipReason).toMatch(/^nothing could be checked/);
    } finally {
      server.close();
    }
  });
});
