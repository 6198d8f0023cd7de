import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../index.ts';

// errors.insufficientFundsDetails read from a target that gives the details and from one
// that leaves them out (the sandbox can play both), within the default budget.

describe('insufficient_funds details detection', () => {
  for (const given of [true, false]) {
    it(`reads ${given ? 'details given' : 'no details'}`, { timeout: 60_000 }, async () => {
      const server = await startSandboxServer({ profile: parseProfile({ errors: { insufficientFundsDetails: given } }), controls: false, validateResponses: false });
      try {
        const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale' });
        const rec = d.options['errors.insufficientFundsDetails']!;
        expect(rec.detected, JSON.stringify(rec)).toBe(true);
        expect(rec.value).toBe(given);
      } finally {
        await server.close();
      }
    });
  }
});
