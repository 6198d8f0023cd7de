import { describe, expect, it } from 'vitest';
import { assertSafe, resolveTarget, targetEnv, UnsafeTargetError } from './target.ts';

describe('target', () => {
  it('takes flags over the environment and reads the rest from LENDCHECK_*', () => {
    const t = resolveTarget({ baseUrl: 'http://127.0.0.1:1/v1' }, { LENDCHECK_BASE_URL: 'http://x/v1', LENDCHECK_API_KEY: 'ck_test_a', LENDCHECK_ONLY: 'a, b', LENDCHECK_STRICT: '1' });
    expect(t.baseUrl).toBe('http://127.0.0.1:1/v1');
    expect(t.apiKey).toBe('ck_test_a');
    expect(t.only).toEqual(['a', 'b']);
    expect(t.strict).toBe(true);
    expect(resolveTarget({}, targetEnv(t))).toMatchObject({ baseUrl: t.baseUrl, apiKey: 'ck_test_a', only: ['a', 'b'], strict: true });
  });

  it('refuses a ck_live_ key unless the run is read-only', () => {
    expect(() => assertSafe({ baseUrl: 'https://api.example/v1', apiKey: 'ck_live_abc' })).toThrow(UnsafeTargetError);
    expect(() => assertSafe({ baseUrl: 'https://api.example/v1', apiKey: 'ck_live_abc', readOnly: true })).not.toThrow();
    expect(() => assertSafe({ baseUrl: 'https://api.example/v1', apiKey: 'ck_test_abc', apiKey2: 'ck_live_x' })).toThrow(/read-only/);
  });

  it('never bursts a live key, even read-only, and needs a key with a base URL', () => {
    expect(() => assertSafe({ baseUrl: 'https://a/v1', apiKey: 'ck_live_a', burstKey: 'ck_live_b', readOnly: true })).toThrow(/exhaust/);
    expect(() => assertSafe({ baseUrl: 'https://a/v1' })).toThrow(/api-key/);
    expect(() => assertSafe({ baseUrl: 'ftp://a/v1', apiKey: 'ck_test_a' })).toThrow(/http/);
  });
});
