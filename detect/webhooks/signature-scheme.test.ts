import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { SIGNATURE_SCHEMES } from '../../signing/signature.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../index.ts';

// profile detect reads the signature scheme from a real delivery: the sandbox, playing a
// target without controls, signs under each scheme in turn and detection must name it
// (every variant of the table, signing/variants.ts: issue 47).

describe('profile detect: signature.scheme', () => {
  it.each(SIGNATURE_SCHEMES)('recognises %s from a delivery', { timeout: 90_000 }, async (scheme) => {
    const server = await startSandboxServer({ profile: parseProfile({ signature: { scheme } }), controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_growth' });
      expect(d.options['signature.scheme']).toMatchObject({ detected: true, value: scheme, confidence: 'high' });
    } finally {
      await server.close();
    }
  });
});
