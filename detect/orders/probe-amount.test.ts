import { describe, expect, it } from 'vitest';
import { parseProfile, SUCCESS_STATUS_DEFAULTS } from '../../contract/index.ts';
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

describe('detection against a minimum withdrawal of 730 and a withdrawal answered 200', () => {
  it('finds the minimum before the lifecycle probe withdraws, so the withdrawal\'s own status is known, not the default 202 (issue 47)', { timeout: 180_000 }, async () => {
    const sb = await startSandboxServer({ profile: parseProfile({ amounts: { minWithdrawal: '730' }, successStatus: { ...SUCCESS_STATUS_DEFAULTS, 'POST /users/{userId}/withdraw': 200 } }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale' });
      expect(d.options['amounts.minWithdrawal']).toMatchObject({ detected: true, value: '1000' });
      expect(d.merged.successStatus['POST /users/{userId}/withdraw']).toBe(200);
      // The public reads' statuses are seen too; nothing of the interface is left at a default standing in.
      expect(d.merged.successStatus['GET /vaults']).toBe(200);
      for (const [k, v] of Object.entries(d.merged.successStatus)) expect(v === null || d.options[`successStatus.${k}`]?.detected !== false, k).toBe(true);
    } finally {
      await sb.close();
    }
  });
});
