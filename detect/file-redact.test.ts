import { describe, expect, it } from 'vitest';
import { parseProfile } from '../contract/index.ts';
import { redactProfileFile } from './file-redact.ts';

describe('the detected profile file, redacted', () => {
  const secret = 'whsec_c2VjcmV0LXZhbHVlLW9mLXRoZS10YXJnZXQ';
  const key = 'partnerkey-without-prefix';
  const file = {
    name: 'detected',
    responses: { 'POST /webhooks': { fields: { webhookId: 'string', secret: 'string', token: 'string', apiKey: 'string' } } },
    detection: {
      target: 'http://127.0.0.1:5100/v1',
      options: {
        'responses.POST /webhooks': {
          detected: true,
          value: { fields: { secret: 'string', password: 'string' } },
          evidence: [{ requestHeaders: { authorization: `Bearer ${key}` }, responseBody: JSON.stringify({ webhookId: 'wh_1', secret }) }],
        },
        'webhooks.secretRequired': { detected: true, value: false, evidence: [{ requestBody: `{"secret":"${secret}"}` }] },
      },
    },
  };

  it('keeps field names and types (a `secret` field stays "string") and loads as a profile', () => {
    const out = redactProfileFile(file, [key]);
    expect(out.responses).toEqual(file.responses);
    expect(parseProfile(out).responses['POST /webhooks']!.fields.secret).toBe('string');
    const rec = (out.detection as { options: Record<string, { value: unknown }> }).options['responses.POST /webhooks']!;
    expect(rec.value).toEqual({ fields: { secret: 'string', password: 'string' } });
  });

  it('masks every secret and key value, wherever it sits', () => {
    const text = JSON.stringify(redactProfileFile(file, [key]));
    expect(text).not.toContain(secret);
    expect(text).not.toContain(key);
    expect(text).toContain('***');
  });

  it('masks a type that is not a JSON type name as a value (a name-keyed value is never trusted)', () => {
    const odd = { responses: { 'POST /webhooks': { fields: { secret: secret } } } };
    expect(JSON.stringify(redactProfileFile(odd, []))).not.toContain(secret);
  });
});
