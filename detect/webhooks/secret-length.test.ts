import { describe, expect, it } from 'vitest';
import { parseProfile, type Profile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../index.ts';
import { exampleProfile } from '../../examples/profiles/load.ts';

// webhooks.secretMinLength is read from refusals: where subscriptions can be deleted (probes
// to the receiver, deleted at once) and where they cannot (probes to an unreachable http
// address, refused naming url once the secret has passed); a target taking the prefix alone
// gets null, and the figure a refusal names is checked at its edge.

async function detected(profile: Profile) {
  const server = await startSandboxServer({ profile, controls: false, validateResponses: false });
  try {
    const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale', maxRequests: 250 });
    return d.options['webhooks.secretMinLength']!;
  } finally {
    await server.close();
  }
}

describe('webhooks.secretMinLength detection', () => {
  it('reads the minimum where it is enforced, and states none where the prefix alone is taken', { timeout: 60_000 }, async () => {
    const minimal = exampleProfile('minimal-sandbox');
    const fintech = exampleProfile('fintech-rest');
    const [deletable, undeletable, longer, none] = await Promise.all([
      detected(minimal),
      detected(fintech),
      detected(parseProfile({ ...minimal, webhooks: { ...minimal.webhooks, secretMinLength: 30 } })),
      detected(parseProfile({ ...minimal, webhooks: { ...minimal.webhooks, secretMinLength: null } })),
    ]);
    expect(minimal.webhooks.deleteWithoutList).toBe(true);
    expect(deletable).toMatchObject({ detected: true, value: 22, note: expect.stringMatching(/^22 characters taken, 21 refused naming secret/) });
    expect(fintech.webhooks.listAndDelete || fintech.webhooks.deleteWithoutList).toBe(false);
    expect(undeletable).toMatchObject({ detected: true, value: 22 });
    expect(longer).toMatchObject({ detected: true, value: 30 });
    expect(none).toMatchObject({ detected: true, value: null, note: expect.stringMatching(/the prefix alone \(6 characters\) was taken/) });
  });

  it('reads the minimum under standard-webhooks too, probing base64 secrets only (seed 3 of the soak)', { timeout: 60_000 }, async () => {
    const minimal = exampleProfile('minimal-sandbox');
    const standard = (min: number | null) => parseProfile({ ...minimal, signature: { ...minimal.signature, scheme: 'standard-webhooks' }, webhooks: { ...minimal.webhooks, secretMinLength: min } });
    const [at22, at30, none] = await Promise.all([detected(standard(22)), detected(standard(30)), detected(standard(null))]);
    expect(at22).toMatchObject({ detected: true, value: 22, note: expect.stringMatching(/^22 characters taken, 18 refused/) });
    expect(at30).toMatchObject({ detected: true, value: 30 });
    expect(none).toMatchObject({ detected: true, value: null });
  });
});
