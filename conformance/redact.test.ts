import { describe, expect, it } from 'vitest';
import { redactAuthorization, redactHeaders, redactText } from './redact.ts';

describe('redaction', () => {
  it('keeps the scheme and the key prefix of an Authorization header, nothing more', () => {
    expect(redactAuthorization('Bearer ck_test_partner_a_growth')).toBe('Bearer ck_test_…<redacted>');
    expect(redactAuthorization('Bearer ck_live_0123456789')).toBe('Bearer ck_live_…<redacted>');
    expect(redactAuthorization('Basic dXNlcjpwYXNz')).toBe('Basic <redacted>');
    expect(redactHeaders({ Authorization: 'Bearer ck_test_x1', 'x-other': 'whsec_abcdef0123456789' })).toEqual({
      Authorization: 'Bearer ck_test_…<redacted>',
      'x-other': 'whsec_…<redacted>',
    });
  });

  it('scrubs keys, webhook secrets and given secrets from any text', () => {
    const s = redactText('{"secret":"whsec_abc123XYZ","k":"ck_test_foo_bar","raw":"sekrit-value"}', ['sekrit-value']);
    expect(s).not.toMatch(/abc123XYZ|foo_bar|sekrit-value/);
    expect(s).toContain('whsec_…<redacted>');
  });
});
