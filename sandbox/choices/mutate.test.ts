import { describe, expect, it } from 'vitest';
import { defaultProfile, endpointKey, endpoints } from '../../contract/index.ts';
import { legalityProblems } from './legal.ts';
import { mutatedChoices, mutatedProfile } from './mutate-profile.ts';
import { keptNames, mutateBody, normalizeBody, shapePlan } from './mutate-shapes.ts';

// The shape mutator's two halves are pure: the same seed gives the same profile and the same
// body, every profile keeps the spec's rules (legal.ts), and a mutated body keeps what a client
// must find. The sandbox serving them is tested in sandbox/mutate/plugin.test.ts.

const ID_LIKE = /(^id$|Id$|_id$)/;
const SEEDS = Array.from({ length: 150 }, (_, i) => i + 1);

/** Every key of a JSON value, at any depth. */
const keysOf = (v: unknown): string[] => (Array.isArray(v) ? v.flatMap(keysOf) : v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [k, ...keysOf(x)]) : []);

const borrowBody = { positionId: 'pos_1', userId: 'u1', status: 'pending', amount: '100.50', createdAt: '2026-01-01T00:00:00.123Z', collateral: { asset: 'ETH', amount: '1.000' } };

describe('sandbox --choices mutate', () => {
  it('is deterministic per seed, and seeds differ', () => {
    expect(mutatedChoices(9)).toEqual(mutatedChoices(9));
    const plan = shapePlan(9);
    expect(mutateBody(plan, 'POST /borrow', borrowBody, new Set(['positionId']))).toEqual(mutateBody(shapePlan(9), 'POST /borrow', borrowBody, new Set(['positionId'])));
    expect(new Set(SEEDS.slice(0, 30).map((s) => JSON.stringify({ ...mutatedChoices(s), name: '' }))).size).toBe(30);
    expect(new Set(SEEDS.slice(0, 30).map((s) => JSON.stringify(mutateBody(shapePlan(s), 'POST /borrow', borrowBody, new Set())))).size).toBeGreaterThan(10);
  });

  it('makes only profiles that keep every rule the spec states, over 150 seeds', () => {
    expect(SEEDS.flatMap((s) => legalityProblems(mutatedProfile(s)).map((m) => `seed ${s}: ${m}`))).toEqual([]);
  });

  it('reaches every kind of change over the seeds: 204, other 4xx, null, drop, rename, nest, extra fields, a hidden rates path', () => {
    const profiles = SEEDS.map(mutatedProfile);
    expect(profiles.some((p) => Object.values(p.successStatus).includes(204))).toBe(true);
    expect(profiles.some((p) => p.errors.invalidState.status === 422 || p.errors.invalidState.status === 409)).toBe(true);
    expect(new Set(profiles.map((p) => p.ratesPath)).size).toBeGreaterThan(100);
    expect(SEEDS.some((s) => shapePlan(s).hideRatesPath)).toBe(true);
    const bodies = SEEDS.map((s) => mutateBody(shapePlan(s), 'POST /borrow', borrowBody, new Set(['positionId'])) as Record<string, unknown>);
    expect(bodies.some((b) => b.userId === null)).toBe(true); // null
    expect(bodies.some((b) => !keysOf(b).includes('status'))).toBe(true); // dropped (or renamed)
    expect(bodies.some((b) => keysOf(b).some((k) => k.startsWith('createdAt') && k !== 'createdAt'))).toBe(true); // renamed
    expect(bodies.some((b) => Object.values(b).some((v) => v && typeof v === 'object' && 'userId' in v))).toBe(true); // nested
    expect(bodies.some((b) => Object.keys(b).length > Object.keys(borrowBody).length)).toBe(true); // extra
  });

  it('keeps the ids the profile records, where and as they are, and makes no other id-like name', () => {
    for (const s of SEEDS) {
      const p = mutatedProfile(s);
      for (const key of ['POST /borrow', 'POST /users/{userId}/withdraw', 'POST /webhooks']) {
        const kept = keptNames(p, key);
        const body: Record<string, unknown> = { [[...kept][0]!]: 'the_id', ...(key === 'POST /webhooks' ? { secret: 'whsec_x' } : {}), note: 'n', nested: { a: 1, b: 'x' } };
        const out = mutateBody(shapePlan(s), key, body, kept) as Record<string, unknown>;
        for (const k of kept) expect(out[k], `seed ${s} ${key} ${k}`).toBe(body[k]);
        expect(keysOf(out).filter((k) => ID_LIKE.test(k) && !kept.has(k)), `seed ${s} ${key}`).toEqual([]);
      }
    }
  });

  it('records in the profile the ids under the names the body carries', () => {
    const p = mutatedProfile(3);
    const names = p.bodies.fieldNames;
    expect(p.ids.borrow).toBe(names['POST /borrow']?.positionId ?? 'positionId');
    expect(p.ids.webhook).toBe(names['POST /webhooks']?.webhookId ?? 'webhookId');
    expect(keptNames(p, 'GET /webhooks').has(p.ids.webhook!)).toBe(true);
  });

  it('writes amounts and timestamps in other forms of the same value', () => {
    const body = { amount: '100.50', value: '3.000', userId: '100.00', createdAt: '2026-01-01T00:00:00.123Z', cursor: '20' };
    const minimal = normalizeBody({ ...shapePlan(1), amounts: 'minimal', times: 'seconds' }, body);
    expect(minimal).toEqual({ amount: '100.5', value: '3', userId: '100.00', createdAt: '2026-01-01T00:00:00Z', cursor: '20' });
    expect(normalizeBody({ ...shapePlan(1), amounts: 'padded', times: 'as-is' }, { amount: '100', n: [{ amount: '1.5' }] })).toEqual({ amount: '100.00', n: [{ amount: '1.50' }] });
  });

  it('changes statuses only to 2xx, and empties only bodies that are open and hold no id', () => {
    const openToo = new Set(endpoints(defaultProfile).filter((e) => e.responseSource === 'profile').map(endpointKey));
    for (const s of SEEDS) {
      for (const [key, status] of Object.entries(mutatedProfile(s).successStatus)) {
        expect(status).toBeGreaterThanOrEqual(200);
        expect(status).toBeLessThan(300);
        if (status === 204 || status === 205) {
          expect(openToo.has(key), `seed ${s}: ${key} ${status}`).toBe(true);
          expect(keptNames(defaultProfile, key).size, key).toBe(0);
        }
      }
    }
  });
});
