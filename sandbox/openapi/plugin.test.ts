import { afterAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { exampleProfile } from '../../examples/profiles/load.ts';
import { checkOpenApi } from '../../cli/gate/contract-step.ts';
import { startSandboxServer, type SandboxServer } from '../server.ts';
import { openApiPlugin } from './plugin.ts';

const servers: SandboxServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
const target = (baseUrl: string) => ({ baseUrl, label: baseUrl, embedded: false, tierKeys: {}, hasControls: false, close: async () => {} });

type Doc = { openapi: string; info: { description: string }; servers: Array<{ url: string }>; paths: Record<string, Record<string, unknown>> };

describe('the sandbox serves its OpenAPI document', () => {
  it('at /v1/openapi.json and /.well-known/openapi.json, without a key, naming the address it was asked at', async () => {
    const s = await startSandboxServer({ port: 0, plugins: [openApiPlugin()] });
    servers.push(s);
    const origin = new URL(s.url).origin;
    for (const url of [`${s.url}/openapi.json`, `${origin}/.well-known/openapi.json`]) {
      const r = await fetch(url);
      expect(r.status, url).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = (await r.json()) as Doc;
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.servers).toEqual([expect.objectContaining({ url: s.url })]);
      expect(doc.paths['/lend']?.post).toBeDefined();
      expect(doc.paths['/sandbox/clock']?.get, 'controls are described when served').toBeDefined();
    }
  });

  it('under the profile it runs with, and without /sandbox operations when it has no controls', async () => {
    const profile = exampleProfile('fintech-rest');
    const s = await startSandboxServer({ port: 0, profile, controls: false, plugins: [openApiPlugin()] });
    servers.push(s);
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Doc;
    expect(doc.info.description).toContain(`profile "${profile.name}"`);
    expect(doc.paths[profile.ratesPath!]?.get, `the profile's rates path ${profile.ratesPath}`).toBeDefined();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/sandbox'))).toEqual([]);
    // The gate's check reads it and finds every operation of this profile's table.
    const same = await checkOpenApi(target(s.url), profile);
    expect(same.map((r) => r.status)).toEqual(['passed']);
    // ... and a profile that moved the rates path elsewhere finds it missing: the check can fail.
    const moved = await checkOpenApi(target(s.url), parseProfile({ ratesPath: '/rates-elsewhere' }));
    expect(moved.filter((r) => r.status === 'failed').map((r) => `${r.title} ${r.message ?? ''}`).join('\n')).toMatch(/\/rates-elsewhere/);
  });
});
