import { describe, expect, it } from 'vitest';
import * as pkg from 'lendcheck';
import { signWebhook, verifyWebhook } from './signature.ts';

describe('partner helpers', () => {
  it('the package root exports signWebhook and verifyWebhook (the contract implementations)', () => {
    expect(pkg.signWebhook).toBe(signWebhook);
    expect(pkg.verifyWebhook).toBe(verifyWebhook);
  });

  it('verifyWebhook(rawBody, header, secret, options) applies the tolerance and rejects a changed byte', () => {
    const raw = '{"id":"evt_1","type":"position.created"}';
    const t = 1_800_000_000;
    const header = signWebhook(raw, 'whsec_p', { timestamp: t });
    expect(verifyWebhook(raw, header, 'whsec_p', { now: t + 10 })).toEqual({ ok: true, timestamp: t });
    expect(verifyWebhook(raw, header, 'whsec_p', { now: t + 301 })).toEqual({ ok: false, reason: 'stale' });
    expect(verifyWebhook(raw.replace('1', '2'), header, 'whsec_p', { now: t })).toEqual({ ok: false, reason: 'mismatch' });
    const hex = signWebhook(raw, 'whsec_p', { scheme: 'hmac-sha256-hex' });
    expect(verifyWebhook(raw, hex, 'whsec_p', { scheme: 'hmac-sha256-hex' })).toEqual({ ok: true });
  });
});
