import { describe, it, expect } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { embeddedTarget, LOAD_KEYS } from './embedded.ts';
import { probeControls } from './target.ts';

describe('the gate against its embedded sandbox', () => {
  it('gives load its own tier keys, untouched by conformance, and has sandbox controls', async () => {
    const t = await embeddedTarget({ profile: defaultProfile });
    try {
      expect(t.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(t.tierKeys).toEqual({ starter: 'ck_test_gate_load_starter', growth: 'ck_test_gate_load_growth', scale: 'ck_test_gate_load_scale' });
      const conformanceKeys = [t.apiKey, t.apiKey2, t.burstKey];
      expect(conformanceKeys.every(Boolean)).toBe(true);
      for (const k of LOAD_KEYS) expect(conformanceKeys).not.toContain(k.key);
      expect(await probeControls(t.baseUrl, t.apiKey)).toBe(true);
      // The load keys are real keys of the sandbox, at their tier's limit.
      const r = await fetch(`${t.baseUrl}${defaultProfile.ratesPath}`, { headers: { authorization: `Bearer ${t.tierKeys.starter}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('100');
    } finally {
      await t.close();
    }
  });
});
