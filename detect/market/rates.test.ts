import { describe, expect, it } from 'vitest';
import { endpoints, parseProfile } from '../../contract/index.ts';
import { buildOpenApi } from '../../contract/openapi/document.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../index.ts';

// ratesPath outside RATES_PATH_CANDIDATES: read from the target's own OpenAPI document (the sandbox serves
// one at /v1/openapi.json), and confirmed by an answer; before, the detected profile kept the default /rates
// and the contract step asserted it (neutrality.md, seed 3 of an earlier generator).

describe('ratesPath detection', () => {
  it('finds a rates path no candidate names through the target’s OpenAPI document', { timeout: 60_000 }, async () => {
    const server = await startSandboxServer({ profile: parseProfile({ ratesPath: '/lending/rates' }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 250 });
      expect(d.options['ratesPath']).toMatchObject({ detected: true, value: '/lending/rates', note: expect.stringMatching(/OpenAPI document names \/lending\/rates/) });
    } finally {
      await server.close();
    }
  });

  it('finds one whose name says nothing of rates (the spec gives no name) through the same document', { timeout: 60_000 }, async () => {
    const server = await startSandboxServer({ profile: parseProfile({ ratesPath: '/quotes' }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 250 });
      expect(d.options['ratesPath']).toMatchObject({ detected: true, value: '/quotes' });
    } finally {
      await server.close();
    }
  });

  it('with no candidate answering and no OpenAPI document, the path is unknown (null): nothing asserts it', { timeout: 60_000 }, async () => {
    // The sandbox without its OpenAPI plugin: a target that serves no document.
    const plugins = defaultPlugins().filter((p) => p.name !== 'openapi');
    const server = await startSandboxServer({ profile: parseProfile({ ratesPath: '/quotes' }), controls: false, validateResponses: false, plugins });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 250 });
      expect(d.options['ratesPath']).toMatchObject({ detected: false, value: null, reason: expect.stringMatching(/no OpenAPI document.*unknown \(null\)/) });
      expect(d.merged.ratesPath).toBeNull();
      expect(endpoints(d.merged).map((e) => e.id)).not.toContain('rates.get');
      const doc = buildOpenApi(d.merged) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).filter((p) => /rates/.test(p))).toEqual(['/markets/rates', '/analytics/rates']);
    } finally {
      await server.close();
    }
  });
});
