import { describe, expect, it } from 'vitest';
import { embeddedKeys } from './embedded-keys.ts';
import { DEFAULT_KEYS } from './keys.ts';

describe('embeddedKeys', () => {
  it('drives the default keys with partner A Scale, bursts on its Starter, and names partner B for tenancy', () => {
    const k = embeddedKeys(DEFAULT_KEYS);
    expect([k.main.key, k.burst?.key, k.other?.key]).toEqual(['ck_test_partner_a_scale', 'ck_test_partner_a_starter', 'ck_test_partner_b_growth']);
  });

  it('falls back to Growth, then the first key, and leaves out what a key list lacks', () => {
    expect(embeddedKeys([{ key: 'ck_test_a1', partnerId: 'a' }, { key: 'ck_test_a2', partnerId: 'a', tier: 'growth' }]).main.key).toBe('ck_test_a2');
    expect(embeddedKeys([{ key: 'ck_test_a1', partnerId: 'a' }])).toEqual({ main: { key: 'ck_test_a1', partnerId: 'a' } });
    expect(() => embeddedKeys([])).toThrow(/no keys/);
  });
});
