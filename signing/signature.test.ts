import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook } from './signature.ts';

const secret = 'whsec_test_0123456789abcdef';
const body = '{"id":"evt_1","type":"position.matched","timestamp":"2026-01-15T10:30:05Z","data":{}}';

describe('webhook signatures', () => {
  it('t-v1 scheme matches an independent HMAC and verifies', () => {
    const h = signWebhook(body, secret, { timestamp: 1_700_000_000 });
    const hex = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(h).toBe(`t=1700000000,v1=${hex}`);
    expect(verifyWebhook(body, h, secret, { now: 1_700_000_010 })).toEqual({ ok: true, timestamp: 1_700_000_000 });
  });
  it('rejects a tampered body, a wrong secret, a missing or malformed header', () => {
    const h = signWebhook(body, secret, { timestamp: 1_700_000_000 });
    const now = 1_700_000_000;
    expect(verifyWebhook(body.replace('evt_1', 'evt_2'), h, secret, { now })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(body, h, `${secret}x`, { now })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(body, undefined, secret, { now })).toEqual({ ok: false, reason: 'missing' });
    expect(verifyWebhook(body, 'v1=abc', secret, { now })).toEqual({ ok: false, reason: 'malformed' });
  });
  it('rejects re-serialized JSON (the signature is over the raw bytes)', () => {
    const raw = '{"id": "evt_1",  "type":"position.matched"}';
    const h = signWebhook(raw, secret, { timestamp: 5 });
    expect(verifyWebhook(JSON.stringify(JSON.parse(raw)), h, secret, { now: 5 }).ok).toBe(false);
  });
  it('applies the timestamp tolerance both ways', () => {
    const h = signWebhook(body, secret, { timestamp: 1000 });
    expect(verifyWebhook(body, h, secret, { now: 1000 + 301 })).toEqual({ ok: false, reason: 'stale' });
    expect(verifyWebhook(body, h, secret, { now: 1000 - 301 })).toEqual({ ok: false, reason: 'future' });
    expect(verifyWebhook(body, h, secret, { now: 1000 + 299, toleranceSeconds: 300 }).ok).toBe(true);
  });
  it('accepts any of several v1 entries (secret rotation)', () => {
    const h = signWebhook(body, secret, { timestamp: 7 });
    const rotated = `${h.split(',')[0]},v1=${'0'.repeat(64)},${h.split(',')[1]}`;
    expect(verifyWebhook(body, rotated, secret, { now: 7 }).ok).toBe(true);
  });
  it('plain hex scheme', () => {
    const h = signWebhook(body, secret, { scheme: 'hmac-sha256-hex' });
    expect(h).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    expect(verifyWebhook(body, h, secret, { scheme: 'hmac-sha256-hex' }).ok).toBe(true);
    expect(verifyWebhook(body, h.toUpperCase(), secret, { scheme: 'hmac-sha256-hex' }).ok).toBe(true);
    expect(verifyWebhook(`${body} `, h, secret, { scheme: 'hmac-sha256-hex' })).toEqual({ ok: false, reason: 'mismatch' });
  });
});
