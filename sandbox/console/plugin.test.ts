import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlugins } from '../plugins.ts';
import { startSandboxServer, type SandboxServer } from '../server.ts';
import { consolePlugin } from './plugin.ts';
import { exampleProfile } from '../../examples/profiles/load.ts';

const KEY = 'ck_test_partner_a_starter';
let server: SandboxServer;
let bare: SandboxServer;
beforeAll(async () => {
  server = await startSandboxServer({ port: 0, plugins: [...defaultPlugins(), consolePlugin()] });
  bare = await startSandboxServer({ port: 0, controls: false, plugins: [...defaultPlugins(), consolePlugin()] });
});
afterAll(async () => {
  await server.close();
  await bare.close();
});
const at = (s: SandboxServer, path: string, key?: string) => fetch(`${new URL(s.url).origin}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

describe('the console plugin', () => {
  it('serves the page at / and /console with a strict CSP and no key, and echarts from node_modules', async () => {
    for (const p of ['/', '/console']) {
      const r = await at(server, p);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(await r.text()).not.toMatch(/ck_test_[a-z]/);
    }
    const js = await at(server, '/console/echarts.min.js');
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeGreaterThan(500_000);
  });

  it('reads a snapshot: public data without a key, 401 for a bad one, the partner\'s with a good one', async () => {
    const pub = (await (await at(server, '/console/snapshot')).json()) as Record<string, unknown>;
    expect(pub.markets).toEqual(expect.arrayContaining(['USDC-30d']));
    expect(pub.partner).toBeUndefined();
    const bad = await at(server, '/console/snapshot', 'ck_test_nobody');
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('authentication_failed');
    const own = (await (await at(server, '/console/snapshot', KEY)).json()) as { partner: boolean; users: { partnerId: string }; deliveries: unknown; clock: unknown };
    expect(own).toMatchObject({ partner: true, users: { partnerId: 'partner_a' } });
    expect(own.deliveries).toBeDefined();
  });

  it('draws from no rate-limit bucket: a starter key (burst 100) reads 120 snapshots and its next API call still has nearly all of it', async () => {
    for (let i = 0; i < 120; i++) expect((await at(server, '/console/snapshot', KEY)).status).toBe(200);
    const r = await fetch(`${server.url}/sandbox/clock`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(r.status).toBe(200);
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(95);
  });

  it.each(['fintech-rest', 'minimal-sandbox', 'strict-gateway'])('reads under the example profile %s, with and without controls', async (name) => {
    const profile = exampleProfile(name);
    for (const controls of [true, false]) {
      const s = await startSandboxServer({ port: 0, profile, controls, plugins: [...defaultPlugins(), consolePlugin()] });
      try {
        const r = await at(s, '/console/snapshot', KEY);
        expect(r.status, `${name} controls=${controls}: ${await r.clone().text()}`).toBe(200);
        const body = (await r.json()) as { markets: string[]; rates: unknown[]; partner: boolean };
        expect(body.markets.length).toBeGreaterThan(0);
        expect(body.rates.length).toBeGreaterThan(0);
        expect(body.partner).toBe(true);
      } finally {
        await s.close();
      }
    }
  });

  it('without controls: the actions are disabled in the page and the snapshot holds public data and the key check only', async () => {
    const html = await (await at(bare, '/console')).text();
    expect(html).toMatch(/<button disabled title="this sandbox runs without controls">Fund<\/button>/);
    const s = (await (await at(bare, '/console/snapshot', KEY)).json()) as Record<string, unknown>;
    expect(s.partner).toBe(true);
    expect(s.users).toBeUndefined();
  });
});
