import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, renameFields } from '../../contract/index.ts';
import { caller, testSandbox } from '../testing/helpers.ts';
import { defaultPlugins } from '../plugins.ts';
import { legalityProblems } from './legal.ts';
import { randomChoices, randomProfile } from './random.ts';

// The generator draws only legal profiles, the same one for the same seed, and the sandbox
// answers the not-shown bodies in the drawn names (its own validation still on, testing/helpers.ts).

describe('sandbox --choices random', () => {
  it('draws the same profile for the same seed, and others for other seeds', () => {
    expect(randomChoices(42)).toEqual(randomChoices(42));
    const names = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify({ ...randomChoices(i), name: '' })));
    expect(names.size).toBe(20);
  });

  it('draws profiles that keep every rule the spec states, over 200 seeds', () => {
    const bad = Array.from({ length: 200 }, (_, i) => i + 1).flatMap((s) => legalityProblems(randomProfile(s)).map((m) => `seed ${s}: ${m}`));
    expect(bad).toEqual([]);
  });

  it('finds the breaches it is there to find (a rule that cannot fail asserts nothing)', () => {
    const p = parseProfile({ errors: { invalidState: { code: 'invalid_request', status: 409 } }, bodies: { fieldNames: { 'POST /webhooks': { webhookId: 'handle' } } }, ratesPath: '/markets' });
    const problems = legalityProblems(p).join('\n');
    expect(problems).toMatch(/invalidState: expected invalid_request with status 400/);
    expect(problems).toMatch(/webhookId: expected an id-like name/);
    expect(problems).toMatch(/ratesPath: expected a path no other endpoint has/);
    expect(legalityProblems(defaultProfile).filter((m) => !m.startsWith('specCodesKeepStatus'))).toEqual([]);
  });

  it('varies every drawn point across seeds (none stuck at one value)', () => {
    const drawn = Array.from({ length: 40 }, (_, i) => randomChoices(i + 1)) as Record<string, Record<string, unknown>>[];
    for (const top of ['successStatus', 'publicEnvelope', 'webhooks', 'limits', 'pagination', 'errors', 'amounts', 'markets', 'lifecycle', 'requests']) {
      for (const k of Object.keys(drawn[0]![top]!)) {
        if (['allowLoopbackHttp', 'cancellable'].includes(k)) continue;
        expect(new Set(drawn.map((d) => JSON.stringify(d[top]![k]))).size, `${top}.${k}`).toBeGreaterThan(1);
      }
    }
  });

  it('draws the unknown-field policy after every other point (older seeds keep their other choices)', () => {
    const policies = new Set(Array.from({ length: 20 }, (_, i) => randomChoices(i + 1).requests?.unknownFields));
    expect([...policies].sort()).toEqual(['ignore', 'reject']);
    // Seed 6 is the fixed partner-leak case: its unknown-user choice (drawn before the policy) must not move.
    expect(randomChoices(6).errors?.unknownUser).toBe('position_not_found');
  });

  it('renames keys at every depth, and leaves the input as it was', () => {
    const body = { vaults: [{ id: 'v', tvl: '1' }], n: 1 };
    expect(renameFields(body, { vaults: 'items', id: 'vaultId' })).toEqual({ items: [{ vaultId: 'v', tvl: '1' }], n: 1 });
    expect(body.vaults[0]!.id).toBe('v');
  });

  it('answers not-shown bodies in the profile’s names, inside the public wrapper, with its own checks on', async () => {
    const profile = parseProfile({
      publicEnvelope: { '/vaults': 'data', '/markets': 'bare' },
      bodies: { fieldNames: { 'GET /vaults': { vaults: 'items', id: 'vaultId' }, 'POST /webhooks': { webhookId: 'id' }, 'GET /webhooks': { webhooks: 'subscriptions', webhookId: 'id' } } },
    });
    const sb = testSandbox({ profile, plugins: defaultPlugins({ rateLimits: false, webhooks: false }) });
    try {
      const call = caller(sb);
      const v = await call('GET', '/vaults', { key: null });
      expect(v.status).toBe(200);
      expect(Object.keys(v.body).sort()).toEqual(['data', 'timestamp']);
      expect(v.body.data.vaults).toBeUndefined();
      expect(typeof v.body.data.items[0].vaultId).toBe('string');
      const w = await call('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['position.matched'] } });
      expect(w.status, JSON.stringify(w.body)).toBe(201);
      expect(w.body.webhookId).toBeUndefined();
      expect(w.body.id).toMatch(/\S/);
      const l = await call('GET', '/webhooks');
      expect(l.body.subscriptions.map((s: { id: string }) => s.id)).toContain(w.body.id);
      // A body the spec shows keeps its names.
      const m = await call('GET', '/markets', { key: null });
      expect(Array.isArray(m.body.markets)).toBe(true);
    } finally {
      await sb.close();
    }
  });
});
