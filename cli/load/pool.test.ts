import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { checkPoolBudget, loadPool, mintPool, parsePoolSpec, poolBudget, poolSlots } from './pool.ts';
import { startReceiver } from '../../chaos/receiver.ts';
import { signWebhook } from '../../signing/signature.ts';

describe('key pool', () => {
  it('mints N keys over M partners, interleaved, and reads N,M specs', () => {
    const pool = mintPool(6, 3);
    expect(pool.map((k) => k.partnerId)).toEqual(['pool_partner_1', 'pool_partner_2', 'pool_partner_3', 'pool_partner_1', 'pool_partner_2', 'pool_partner_3']);
    expect(new Set(pool.map((k) => k.key)).size).toBe(6);
    expect(pool.every((k) => /^ck_test_[A-Za-z0-9_]+$/.test(k.key))).toBe(true);
    expect(parsePoolSpec('20,partners 4')).toEqual({ keys: 20, partners: 4 });
    expect(parsePoolSpec('40,5')).toEqual({ keys: 40, partners: 5 });
    expect(() => parsePoolSpec('3,5')).toThrow(/partners ≤ keys/);
  });

  it('refuses a plan above the pool budget, naming both figures', () => {
    const pool = mintPool(3, 3); // Scale: 1000/min each
    expect(poolBudget(pool)).toBeCloseTo(50);
    expect(() => checkPoolBudget(pool, 50)).not.toThrow();
    expect(() => checkPoolBudget(pool, 60)).toThrow(/offers 60 keyed requests\/s but the pool's 3 keys allow 50\/s.*add at least 1 Scale keys/);
  });

  it('spreads slots in proportion to the tiers', () => {
    const pool = [{ key: 'a', partnerId: 'p', tier: 'starter' }, { key: 'b', partnerId: 'q', tier: 'growth' }];
    const slots = poolSlots(pool);
    expect(slots.filter((s) => s === 1).length / slots.filter((s) => s === 0).length).toBe(5);
  });

  it('reads --keys or LENDCHECK_KEYS and says what is wrong', () => {
    expect(loadPool(defaultProfile, undefined, {})).toBeUndefined();
    expect(loadPool(defaultProfile, undefined, { LENDCHECK_KEYS: '[{"key":"ck_test_abcdefgh","partnerId":"p"}]' })?.[0].tier).toBe(defaultProfile.limits.defaultTier);
    expect(() => loadPool(defaultProfile, undefined, { LENDCHECK_KEYS: '[]' })).toThrow(/LENDCHECK_KEYS.*at least one key/);
    expect(() => loadPool(defaultProfile, '/nonexistent/keys.json')).toThrow(/--keys .*cannot read/);
  });
});

describe('receiver: GET /observed', () => {
  it('answers with the first signed arrival of an event about a subject, waiting for it', async () => {
    const secret = 'whsec_test_observed';
    const r = await startReceiver({ secret });
    try {
      const observe = (wait: number) => fetch(`${r.url}observed?subject=pos_1&type=position.matched&waitMs=${wait}`);
      expect((await observe(0)).status).toBe(404);
      const waiting = observe(5000);
      const body = JSON.stringify({ id: 'evt_1', type: 'position.matched', timestamp: new Date().toISOString(), data: { positionId: 'pos_1' } });
      // A delivery with a bad signature does not count.
      await fetch(r.url, { method: 'POST', body, headers: { 'x-service-signature': 't=1,v1=00' } });
      const before = Date.now();
      await fetch(r.url, { method: 'POST', body, headers: { 'x-service-signature': signWebhook(body, secret, { scheme: defaultProfile.signature.scheme ?? undefined }) } });
      const res = await waiting;
      expect(res.status).toBe(200);
      const got = (await res.json()) as { arrivalMs: number; eventId: string };
      expect(got.eventId).toBe('evt_1');
      expect(Math.abs(got.arrivalMs - before)).toBeLessThan(1000);
      expect((await fetch(`${r.url}observed?type=position.matched`)).status).toBe(400);
    } finally {
      await r.close();
    }
  });
});
