import { describe, expect, it } from 'vitest';
import { credentialChanges, fingerprintCredentials } from './fingerprint.ts';

describe('credential fingerprints for replay', () => {
  const run = { baseUrl: 'https://sandbox.example.com/v1', credentials: fingerprintCredentials('https://sandbox.example.com/v1', { apiKey: 'ck_test_secret_one' }) };

  it('holds no key, and differs per run (salted)', () => {
    expect(JSON.stringify(run)).not.toContain('secret_one');
    expect(fingerprintCredentials(run.baseUrl, { apiKey: 'ck_test_secret_one' }).keys['--api-key']).not.toBe(run.credentials.keys['--api-key']);
    expect(run.credentials.keys['--api-key']).toMatch(/^[0-9a-f]{16}$/);
  });

  it('the same target and keys: nothing changed', () => {
    expect(credentialChanges(run, { baseUrl: 'https://sandbox.example.com/v1/', keys: { apiKey: 'ck_test_secret_one' } })).toEqual([]);
  });

  it('says what changed: the target, a key, a key given or dropped', () => {
    expect(credentialChanges(run, { baseUrl: 'https://other.example.com/v1', keys: { apiKey: 'ck_test_secret_one' } })).toEqual([
      'the target: the run was against https://sandbox.example.com/v1, this replay against https://other.example.com/v1',
    ]);
    expect(credentialChanges(run, { baseUrl: run.baseUrl, keys: { apiKey: 'ck_test_other', apiKey2: 'ck_test_two' } })).toEqual(['--api-key: not the key the run used', '--api-key-2: given now, not to the run']);
    expect(credentialChanges(run, { baseUrl: run.baseUrl, keys: {} })).toEqual(['--api-key: given to the run, not now']);
  });

  it('a file without fingerprints (an older lendcheck) cannot confirm the keys', () => {
    expect(credentialChanges({ baseUrl: run.baseUrl }, { baseUrl: run.baseUrl, keys: { apiKey: 'x' } })[0]).toMatch(/recorded no fingerprint/);
  });
});
