import { describe, expect, it } from 'vitest';
import { start } from '../../examples/receivers/sample.ts';
import { generateWebhookSecret } from '../../signing/signature.ts';
import { runCertify } from './run.ts';
import { parseProfile } from '../../contract/index.ts';

describe('runCertify', () => {
  it('certifies under the hmac-sha256-hex scheme, skipping the timestamp probes with the reason', async () => {
    const secret = 'whsec_hex_scheme_secret_12345678';
    const rx = await start({ secret, scheme: 'hmac-sha256-hex' });
    try {
      const r = await runCertify({ url: rx.url, secret, scheme: 'hmac-sha256-hex', burst: 10 });
      expect(r.checks.filter((c) => c.status === 'failed').map((c) => c.message)).toEqual([]);
      expect(r.status).toBe('passed');
      const stale = r.checks.find((c) => c.id === 'signature.stale-timestamp')!;
      expect(stale).toMatchObject({ status: 'skipped', message: expect.stringMatching(/carries no timestamp/) });
      expect(r.checks.find((c) => c.id === 'source.constant-time-compare')!.message).toMatch(/no --source given/);
      expect(r.figures).toMatchObject({ burstSize: 10, certified: 'yes' });
      // Signatures in the recorded exchanges are shortened, never whole.
      for (const c of r.checks) expect(c.exchange?.requestHeaders['x-service-signature'] ?? '').not.toMatch(/[0-9a-f]{64}/);
    } finally {
      await rx.close();
    }
  });

  it('certifies under standard-webhooks with the timestamp probes run, not skipped', async () => {
    const secret = generateWebhookSecret();
    const rx = await start({ secret, scheme: 'standard-webhooks' });
    try {
      const r = await runCertify({ url: rx.url, secret, scheme: 'standard-webhooks', burst: 10 });
      expect(r.checks.filter((c) => c.status === 'failed').map((c) => c.message)).toEqual([]);
      expect(r.checks.filter((c) => c.id.startsWith('signature.')).map((c) => [c.id, c.status])).toEqual(
        ['invalid', 'missing', 'tampered-body', 'wrong-secret', 'reserialized', 'stale-timestamp', 'future-timestamp'].map((id) => [`signature.${id}`, 'passed']),
      );
      const sent = r.checks.find((c) => c.id === 'delivery.position.created')?.exchange?.requestHeaders ?? {};
      expect(Object.keys(sent)).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-service-signature']));
    } finally {
      await rx.close();
    }
  });

  it('a receiver checking the wrong scheme fails certification under standard-webhooks', async () => {
    const secret = generateWebhookSecret();
    const rx = await start({ secret, scheme: 't-v1-hmac-sha256' });
    try {
      const r = await runCertify({ url: rx.url, secret, scheme: 'standard-webhooks', burst: 5, only: ['delivery.position.created'] });
      expect(r.status).toBe('failed');
    } finally {
      await rx.close();
    }
  });

  it.each(['hmac-sha256-base64-prefixed', 't-v1-hmac-sha512-base64'] as const)('certifies under %s, a variant of the table (issue 47)', async (scheme) => {
    const secret = generateWebhookSecret();
    const rx = await start({ secret, scheme });
    try {
      const r = await runCertify({ url: rx.url, secret, scheme, burst: 5 });
      expect(r.checks.filter((c) => c.status === 'failed').map((c) => c.message)).toEqual([]);
      expect(r.checks.find((c) => c.id === 'signature.stale-timestamp')!.status).toBe(scheme.startsWith('t-') ? 'passed' : 'skipped');
    } finally {
      await rx.close();
    }
  });

  it('skips, with the reason and the option, under a profile whose scheme is unknown (null): no request sent', async () => {
    const r = await runCertify({ url: 'http://127.0.0.1:9/', secret: 'whsec_x_secret_value_0000', profile: parseProfile({ signature: { scheme: null } }) });
    expect(r).toMatchObject({ status: 'skipped', checks: [], skipReason: expect.stringMatching(/signature\.scheme is unknown.*--signature-scheme NAME/) });
  });

  it('fails every probe of an address where nothing listens, with "no answer"', async () => {
    const r = await runCertify({ url: 'http://127.0.0.1:9/', secret: 'whsec_x_secret_value_0000', only: ['delivery.position.created', 'signature.missing'] });
    expect(r.status).toBe('failed');
    expect(r.checks.map((c) => c.message)).toEqual([expect.stringMatching(/^a signed position.created delivery: expected a 2xx within 5000 ms \/ received no answer/), expect.stringMatching(/^a delivery without a signature: expected 401 within 5000 ms \/ received no answer/)]);
  });
});
