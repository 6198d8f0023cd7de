import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { DEFAULT_KEYS, KeyStore, loadKeys, parseKeys } from './keys.ts';

describe('key store', () => {
  it('has one default key per tier and a second partner', () => {
    expect(DEFAULT_KEYS.map((k) => [k.partnerId, k.tier])).toEqual([
      ['partner_a', 'starter'], ['partner_a', 'growth'], ['partner_a', 'scale'], ['partner_b', 'growth'],
    ]);
  });

  it('finds a key by hash, gives an id that is not the key, and the default tier when none is set', () => {
    const store = new KeyStore([{ key: 'ck_test_abc', partnerId: 'p' }], defaultProfile);
    const info = store.lookup('ck_test_abc')!;
    expect(info).toMatchObject({ partnerId: 'p', tier: defaultProfile.limits.defaultTier });
    expect(info.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(JSON.stringify(store)).not.toContain('ck_test_abc');
    expect(store.lookup('ck_test_abd')).toBeUndefined();
    expect(store.lookup('ck_live_abc')).toBeUndefined();
    expect(store.lookup('')).toBeUndefined();
  });

  it('refuses a ck_live_ key in a key store', () => {
    expect(() => parseKeys([{ key: 'ck_live_x', partnerId: 'p' }], 'test')).toThrow(/ck_test_/);
    expect(() => parseKeys({}, 'test')).toThrow(/invalid key store/);
  });

  it('loads from --keys FILE, then env LENDCHECK_KEYS, else the defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendcheck-keys-'));
    try {
      const file = join(dir, 'keys.json');
      writeFileSync(file, JSON.stringify([{ key: 'ck_test_file', partnerId: 'f', tier: 'scale' }]));
      expect(loadKeys(file, {})).toEqual([{ key: 'ck_test_file', partnerId: 'f', tier: 'scale' }]);
      expect(loadKeys(undefined, { LENDCHECK_KEYS: '[{"key":"ck_test_env","partnerId":"e"}]' })).toEqual([{ key: 'ck_test_env', partnerId: 'e' }]);
      expect(loadKeys(undefined, {})).toBe(DEFAULT_KEYS);
      expect(() => loadKeys(join(dir, 'missing.json'), {})).toThrow(/cannot read key store/);
      expect(() => loadKeys(undefined, { LENDCHECK_KEYS: 'nope' })).toThrow(/LENDCHECK_KEYS/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('key store lookups', () => {
  it('answers the same from its memory of seen keys as on the first lookup, and stays bounded', () => {
    const keys = Array.from({ length: 300 }, (_, i) => ({ key: `ck_test_k${i}`, partnerId: `p${i % 3}`, tier: i % 2 ? 'scale' : 'starter' }));
    const store = new KeyStore(keys, defaultProfile);
    const first = keys.map((k) => store.lookup(k.key));
    expect(first.every((i, n) => i?.partnerId === keys[n]!.partnerId && i.tier === keys[n]!.tier)).toBe(true);
    expect(keys.map((k) => store.lookup(k.key))).toEqual(first);
    // Thousands of unknown keys push the known ones out of memory; they are still found by hash.
    for (let i = 0; i < 5000; i++) expect(store.lookup(`ck_test_unknown_${i}`)).toBeUndefined();
    expect(store.lookup('ck_test_unknown_4999')).toBeUndefined();
    expect(keys.map((k) => store.lookup(k.key))).toEqual(first);
    expect(JSON.stringify(store)).not.toContain('ck_test_k1');
  });

  it('keeps the first entry of a key listed twice', () => {
    const store = new KeyStore([{ key: 'ck_test_dup', partnerId: 'first' }, { key: 'ck_test_dup', partnerId: 'second' }], defaultProfile);
    expect(store.lookup('ck_test_dup')?.partnerId).toBe('first');
    expect(store.lookup('ck_test_dup')?.partnerId).toBe('first');
  });
});
