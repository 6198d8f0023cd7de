import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { runChecks } from '../runner.ts';

// Part 6 leaves the signing algorithm and encoding open (issue 47, cause 2). A profile whose
// scheme is unknown (null: detection saw no delivery, or matched no variant) is never a guess:
// a delivery verifies under one of the known variants (noted), or every check that verifies a
// signature skips with the reason and the option that supplies it, never a failure. A profile
// naming a variant outside the older three verifies under it.

const SIGNING = ['hooks.every-delivery', 'hooks.delivery'];

describe('delivery checks under the profile signature.scheme', () => {
  it('unknown (null), the deliveries signed under a known variant: verified under it, and noted', { timeout: 60_000 }, async () => {
    const sb = await startSandboxServer({ validateResponses: false, profile: parseProfile({ signature: { scheme: 'hmac-sha512-base64-v1' } }) });
    try {
      const r = await runChecks({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', profile: parseProfile({ signature: { scheme: null } }), only: ['hooks.delivery'] });
      expect(r.checks.map((c) => [c.id, c.status])).toEqual([['hooks.delivery', 'passed']]);
      expect(r.checks[0]!.notes.join('\n')).toMatch(/signature\.scheme is unknown: the deliveries were verified under hmac-sha512-base64-v1/);
    } finally {
      await sb.close();
    }
  });

  it('unknown (null), a signature no known variant verifies: each check that verifies one skips, naming --signature-scheme', { timeout: 60_000 }, async () => {
    const sb = await startSandboxServer({ validateResponses: false, faults: [{ name: 'hook-resigned-body' }] });
    try {
      const r = await runChecks({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', profile: parseProfile({ signature: { scheme: null } }), only: SIGNING });
      expect(r.checks.map((c) => [c.id, c.status]).sort()).toEqual(SIGNING.map((id) => [id, 'skipped']).sort());
      for (const c of r.checks) expect(c.message).toMatch(/signature\.scheme is unknown.*--signature-scheme NAME.*verifies under none of them/);
    } finally {
      await sb.close();
    }
  });

  it('a named variant (sha256=<base64>) the sandbox signs with: hooks.delivery passes', { timeout: 90_000 }, async () => {
    const profile = parseProfile({ signature: { scheme: 'hmac-sha256-base64-prefixed' } });
    const sb = await startSandboxServer({ validateResponses: false, profile });
    try {
      const r = await runChecks({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', profile, only: ['hooks.delivery'] });
      expect(r.checks.map((c) => [c.id, c.status, c.message])).toEqual([['hooks.delivery', 'passed', undefined]]);
    } finally {
      await sb.close();
    }
  });
});
