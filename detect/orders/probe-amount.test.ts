import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../index.ts';

// The order bounds are searched before any detector lends, and every later probe's amount comes
// from them: against a minimum order of 100, the lends of 10 that the orders and bounds detectors
// sent were refused naming amount, and what they were to find was lost (issue 47, cause 4).

describe('detection against a minimum order of 100', () => {
  it('finds the minimum first, and the detectors after it still find their options', { timeout: 120_000 }, async () => {
    const sb = await startSandboxServer({ profile: parseProfile({ amounts: { minOrder: '100' }, bounds: { rateBelow: 2 } }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 160 });
      expect(d.options['amounts.minOrder']).toMatchObject({ detected: true, value: '100' });
      expect(d.options['bounds.rateBelow']).toMatchObject({ detected: true, value: 2 });
      expect(d.options['pagination.lastPageCursor']).toMatchObject({ detected: true });
    } finally {
      await sb.close();
    }
  });
});
