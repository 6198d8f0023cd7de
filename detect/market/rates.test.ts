import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
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
});
