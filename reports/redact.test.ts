import { describe, it, expect } from 'vitest';
import { redact, createRedactor } from './redact.ts';
import { generateWebhookSecret, signWebhook } from '../signing/signature.ts';

describe('redact', () => {
  it('masks sandbox and live keys but keeps their prefix', () => {
    expect(redact.text('key ck_test_partner_a_starter used')).toBe('key ck_test_*** used');
    expect(redact.text('ck_live_abcDEF123-x')).toBe('ck_live_***');
  });

  it('masks Bearer values whatever the token looks like', () => {
    expect(redact.text('Authorization: Bearer s3cr3t-token.value')).toBe('Authorization: Bearer ***');
    expect(redact.text('"authorization":"Bearer ck_test_x"')).toBe('"authorization":"Bearer ck_test_***"');
    expect(redact.value({ Authorization: 'Bearer ck_live_abc' })).toEqual({ Authorization: 'Bearer ck_live_***' });
  });

  it('masks webhook secrets and unprefixed JSON secret members', () => {
    expect(redact.text('secret whsec_Zm9vYmFy+/=')).toBe('secret whsec_***');
    expect(redact.text('{"url":"http://x","secret":"plain-secret"}')).toBe('{"url":"http://x","secret":"***"}');
  });

  it('masks credential-named members in objects, deeply, without changing the input', () => {
    const input = { requestHeaders: { Authorization: 'Token abc', 'X-Api-Key': 'k-123' }, list: [{ message: 'ck_test_zz' }], n: 3 };
    const out = redact.value(input);
    expect(out).toEqual({ requestHeaders: { Authorization: 'Token ***', 'X-Api-Key': '***' }, list: [{ message: 'ck_test_***' }], n: 3 });
    expect(input.requestHeaders.Authorization).toBe('Token abc');
  });

  it('masks literal credentials given to it, even without a known prefix', () => {
    const r = createRedactor(['partner-key-7781']);
    expect(r.text('sent partner-key-7781 twice: partner-key-7781')).toBe('sent *** twice: ***');
  });

  it('shortens the webhook signature header to its first 8 hex digits (replayable, though not a secret)', () => {
    const sig = `t=1700000000,v1=${'0123456789abcdef'.repeat(4)}`;
    expect(redact.value({ 'x-service-signature': sig })).toEqual({ 'x-service-signature': 't=1700000000,v1=01234567…' });
  });

  it('shortens Standard Webhooks signatures (base64, in either header) the same way', () => {
    const sig = signWebhook('{}', generateWebhookSecret(), { scheme: 'standard-webhooks', id: 'evt_1' });
    const out = redact.value({ 'webhook-signature': sig, 'x-service-signature': sig, 'webhook-id': 'evt_1' });
    expect(out['webhook-signature']).toBe(`${sig.slice(0, 11)}…`);
    expect(out['x-service-signature']).toBe(`${sig.slice(0, 11)}…`);
    expect(out['webhook-id']).toBe('evt_1');
  });

  it('leaves ordinary text alone', () => {
    const s = 'expected status 401 / received 200 for GET /v1/positions/p_1';
    expect(redact.text(s)).toBe(s);
  });

  it('keeps a reproduction\'s shell variables and an escaped placeholder, and still masks a key written in their place', () => {
    const line = `curl -H "Authorization: Bearer $LENDCHECK_API_KEY" --data-raw '{"secret":"'"$LENDCHECK_WEBHOOK_SECRET"'"}'`;
    expect(redact.text(line)).toBe(line);
    expect(redact.text('Authorization: Bearer &lt;API_KEY&gt;')).toBe('Authorization: Bearer &lt;API_KEY&gt;');
    expect(redact.text('Authorization: Bearer opaque$token')).toBe('Authorization: Bearer ***');
    expect(redact.text(`--data-raw '{"secret":"hunter2"}'`)).toBe(`--data-raw '{"secret":"***"}'`);
  });
});
