import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { SIGNATURE_SCHEMES } from '../../signing/signature.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../index.ts';

// profile detect reads the signature scheme from a real delivery: the sandbox, playing a
// target without controls, signs under each scheme in turn and detection must name it
// (issue 47). Each variant is one row of one table (signing/variants.ts), matched by one routine
// that signing/variants.test.ts holds to every row; here a delivery goes end to end for one
// variant of each kind (each prefix form, encoding, algorithm, the timestamped and Standard
// Webhooks, the issue's own `sha256=<base64>`), ~3 s each. LENDCHECK_ALL_SCHEMES=1 runs all 31.
const SAMPLE = ['hmac-sha256-hex', 'hmac-sha256-base64-prefixed', 'hmac-sha512-hex-v1', 'hmac-sha1-base64-v1-comma', 't-v1-hmac-sha256', 't-v1-hmac-sha512-base64', 'standard-webhooks'];
const SCHEMES = process.env.LENDCHECK_ALL_SCHEMES === '1' ? SIGNATURE_SCHEMES : SIGNATURE_SCHEMES.filter((s) => SAMPLE.includes(s));

describe('profile detect: signature.scheme', () => {
  it('the sample names real variants, one of each kind', () => expect(SCHEMES).toHaveLength(process.env.LENDCHECK_ALL_SCHEMES === '1' ? SIGNATURE_SCHEMES.length : SAMPLE.length));

  it.each(SCHEMES)('recognises %s from a delivery', { timeout: 90_000 }, async (scheme) => {
    const server = await startSandboxServer({ profile: parseProfile({ signature: { scheme } }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_growth' });
      expect(d.options['signature.scheme']).toMatchObject({ detected: true, value: scheme, confidence: 'high' });
    } finally {
      await server.close();
    }
  });
});
