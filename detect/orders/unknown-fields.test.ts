import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../index.ts';

// requests.unknownFields: the sandbox honours both policies (a field a body does not list is
// refused naming it, or ignored), and detection reads each back.

describe('unknown request fields', () => {
  for (const policy of ['ignore', 'reject'] as const) {
    it(`the sandbox ${policy === 'reject' ? 'refuses' : 'ignores'} an unlisted field and detection reads ${policy}`, { timeout: 60_000 }, async () => {
      const server = await startSandboxServer({ profile: parseProfile({ requests: { unknownFields: policy } }), controls: false, validateResponses: false });
      try {
        const r = await fetch(`${server.url}/users/u1/withdraw`, {
          method: 'POST',
          headers: { authorization: 'Bearer ck_test_partner_a_scale', 'content-type': 'application/json' },
          body: JSON.stringify({ asset: 'USDC', amount: '1000000000', destination: '0x' + 'ab'.repeat(20), collateral: { nested: 1 } }),
        });
        const body = (await r.json()) as { error: { code: string; message: string } };
        expect(r.status).toBe(400);
        if (policy === 'reject') expect(body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^collateral: is not a field/) });
        else expect(body.error.code).toBe('insufficient_funds');
        // The plugins' bodies too (POST /webhooks is the webhooks plugin's, not the core's).
        const w = await fetch(`${server.url}/webhooks`, {
          method: 'POST',
          headers: { authorization: 'Bearer ck_test_partner_a_scale', 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'https://example.com/hook', events: ['position.matched'], 'x-extra': 42 }),
        });
        const wb = (await w.json()) as { error?: { message: string } };
        if (policy === 'reject') expect([w.status, wb.error?.message]).toEqual([400, 'x-extra: is not a field of this request']);
        else expect(w.status).toBeLessThan(300);
        const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale' });
        expect(d.options['requests.unknownFields']).toMatchObject({ detected: true, value: policy });
      } finally {
        await server.close();
      }
    });
  }
});
