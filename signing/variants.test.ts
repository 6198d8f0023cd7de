import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { SIGNATURE_SCHEME_NAMES } from '../contract/signature-schemes.ts';
import { describeScheme, generateWebhookSecret, matchSignatureScheme, signWebhookHeaders, SIGNATURE_SCHEMES, SIGNATURE_VARIANTS, verifyWebhook } from './signature.ts';

// Every row of the variant table signs and verifies round-trip, refuses a changed byte and a
// wrong secret, and is the one matchSignatureScheme names for its own delivery (issue 47).

const body = '{"id":"evt_9","type":"position.matched","timestamp":"2026-01-15T10:30:05Z","data":{"amount":"100.50"}}';
const secret = generateWebhookSecret();
const t = 1_800_000_000;

describe('signature variants', () => {
  it('the table holds the three older names first, each name once, and the contract lists the same names', () => {
    expect(SIGNATURE_SCHEMES.slice(0, 3)).toEqual(['t-v1-hmac-sha256', 'hmac-sha256-hex', 'standard-webhooks']);
    expect(new Set(SIGNATURE_SCHEMES).size).toBe(SIGNATURE_SCHEMES.length);
    expect(SIGNATURE_SCHEMES.length).toBe(3 * 2 * 4 + 3 * 2 + 1);
    expect([...SIGNATURE_SCHEME_NAMES]).toEqual(SIGNATURE_SCHEMES);
  });

  it.each(SIGNATURE_SCHEMES)('%s: signs, verifies, refuses a changed byte or secret, and is the variant matched', (scheme) => {
    const headers = signWebhookHeaders(body, secret, { scheme, timestamp: t, id: 'evt_9' });
    expect(verifyWebhook(body, headers, secret, { scheme, now: t }).ok).toBe(true);
    expect(verifyWebhook(body.replace('100.50', '900.50'), headers, secret, { scheme, now: t })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(body, headers, generateWebhookSecret(), { scheme, now: t })).toEqual({ ok: false, reason: 'mismatch' });
    expect(matchSignatureScheme(body, headers, secret, { now: t })?.scheme).toBe(scheme);
    expect(describeScheme(scheme)).toMatch(/HMAC-SHA/);
  });

  it("the issue's case: sha256=<base64 HMAC-SHA256 of the raw body>, made independently, is hmac-sha256-base64-prefixed", () => {
    const sig = `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
    expect(matchSignatureScheme(body, { 'x-service-signature': sig }, secret)).toEqual({ scheme: 'hmac-sha256-base64-prefixed', timestamp: undefined });
    expect(SIGNATURE_VARIANTS.find((v) => v.name === 'hmac-sha256-base64-prefixed')).toMatchObject({ algorithm: 'sha256', encoding: 'base64', form: 'bare', prefix: 'sha256=' });
  });

  it('a Stripe-like base64 form with several v1 entries verifies; a scheme nobody listed matches none', () => {
    const mac = createHmac('sha512', secret).update(`${t}.${body}`).digest('base64');
    const h = { 'x-service-signature': `t=${t},v1=${'A'.repeat(88)},v1=${mac}` };
    expect(matchSignatureScheme(body, h, secret, { now: t })?.scheme).toBe('t-v1-hmac-sha512-base64');
    const other = createHmac('sha384', secret).update(body).digest('hex');
    expect(matchSignatureScheme(body, { 'x-service-signature': other }, secret, { now: t })).toBeNull();
    expect(matchSignatureScheme(body, {}, secret, { now: t })).toBeNull();
  });
});
