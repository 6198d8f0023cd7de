import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../contract/index.ts';
import { EXAMPLE_PROFILES, exampleProfile } from '../../../examples/profiles/load.ts';
import { AUTHZ_CHECKS, CAUGHT_BY, namesCell, runAuthz } from './proof.ts';

// Proof that the authorization matrix catches each authorization fault of the sandbox
// (sandbox/faults/owner-unchecked.ts, list-ignores-partner.ts, user-unscoped.ts,
// sandbox/webhooks/faults/webhook-owner.ts) with its controls off, in a finding that names the
// endpoint, the verb and both partners; and that the clean sandbox passes under every example
// profile. (As a user runs it, with limits on and a detected profile: docs/conformance.md.)

describe('the authorization matrix against a sandbox without controls', () => {
  for (const name of ['default', ...EXAMPLE_PROFILES]) {
    it(`clean, profile ${name}: both checks pass, every cell driven`, async () => {
      const r = await runAuthz([], name === 'default' ? undefined : exampleProfile(name));
      for (const id of AUTHZ_CHECKS) {
        const c = r.checks.find((x) => x.id === id)!;
        expect(c.status, `${id}: ${c.message ?? ''}`).toBe('passed');
      }
      const m = r.checks.find((x) => x.id === 'authz.matrix')!;
      expect(m.notes.join('\n')).toMatch(/matrix: (\d+) of \1 cells driven/);
      expect(m.requests).toBeLessThanOrEqual(60 - r.checks.find((x) => x.id === 'authz.webhook-url')!.requests!);
    }, 60_000);
  }

  it('a target that echoes the registration secret (webhooks.registrationSecret always) passes: B registers with its own secret (soak seeds 1, 2)', async () => {
    const r = await runAuthz([], parseProfile({ webhooks: { registrationSecret: 'always' } }));
    const m = r.checks.find((x) => x.id === 'authz.matrix')!;
    expect(m.status, m.message ?? '').toBe('passed');
  }, 60_000);

  it('a target refusing an unknown webhook id as its unknown route (400 invalid_request, soak seed 2) passes', async () => {
    const r = await runAuthz([], parseProfile({ errors: { unknownRoute: { code: 'invalid_request', status: 400 } }, webhooks: { listAndDelete: false, deleteWithoutList: true } }));
    const m = r.checks.find((x) => x.id === 'authz.matrix')!;
    expect(m.status, m.message ?? '').toBe('passed');
  }, 60_000);

  it('webhook URLs: a profile requiring refusals passes a sandbox that makes them, and fails one that does not, naming the address', async () => {
    const strict = parseProfile({ webhooks: { requireHttps: true, refuseInternalAddresses: true } });
    const kept = await runAuthz([], strict);
    const k = kept.checks.find((x) => x.id === 'authz.webhook-url')!;
    expect(k.status, k.message ?? '').toBe('passed');
    expect(k.notes.join('\n')).toMatch(/link-local address .* refused/);
    expect(k.notes.join('\n')).toMatch(/advisory: a loopback address/); // allowLoopbackHttp keeps loopback open
    const loose = await runAuthz([], undefined, strict);
    const l = loose.checks.find((x) => x.id === 'authz.webhook-url')!;
    expect(l.status).toBe('failed');
    expect(l.message).toMatch(/refuses a link-local address \(profile webhooks\.refuseInternalAddresses\)/);
  }, 60_000);

  for (const [fault, cell] of Object.entries(CAUGHT_BY)) {
    it(`${fault}: authz.matrix fails naming ${cell.route}, verb ${cell.verb} and both partners`, async () => {
      const r = await runAuthz([{ name: fault }]);
      const c = r.checks.find((x) => x.id === 'authz.matrix')!;
      expect(c.status, c.message ?? '').toBe('failed');
      expect(namesCell(c.message ?? '', cell), c.message).toBe(true);
    }, 60_000);
  }
});
