import { describe, expect, it } from 'vitest';
import { assertable, judgeSuccess } from './assertable.ts';
import { endpoints } from './endpoints.ts';
import { defaultProfile, parseProfile, type Profile } from './profile.ts';

const ep = (p: Profile, id: string) => endpoints(p).find((e) => e.id === id)!;
const judge = (p: Profile, id: string, status: number, json: unknown, contentType = 'application/json') => judgeSuccess(p, ep(p, id), { status, json, text: JSON.stringify(json) ?? '', contentType });
const ts = '2026-01-01T00:00:00Z';

describe('what may be asserted of a success answer (issue 38)', () => {
  it('holds a body the spec shows to the spec schema', () => {
    expect(assertable(defaultProfile, ep(defaultProfile, 'position.get')).source).toBe('spec');
    expect(judge(defaultProfile, 'public.markets', 200, { markets: [] }).failures).toEqual([]);
    expect(judge(defaultProfile, 'public.markets', 200, { markets: [{ id: 'x' }] }).failures[0]).toMatchObject({ expected: 'a body matching the spec schema', received: expect.stringMatching(/^markets\.0\.asset/) });
  });

  it('takes any field names, and any JSON form, where the spec shows no body and the profile records none', () => {
    for (const id of endpoints(defaultProfile).filter((e) => e.responseSource === 'profile' && e.access !== 'sandbox').map((e) => e.id)) {
      for (const body of [{ totallyOwn: { names: [1] }, ref: 'x' }, [1, 2], 'ok', null]) {
        const wrapped = ep(defaultProfile, id).access === 'public' ? { data: body, timestamp: ts } : body;
        expect(judge(defaultProfile, id, 200, wrapped).failures, `${id} ${JSON.stringify(body)}`).toEqual([]);
      }
    }
  });

  it('advises, never fails, on a field part 2 types for another resource in a not-shown body (issue 47)', () => {
    const cases: Array<[string, number, Record<string, unknown>, RegExp, string]> = [
      ['position.repay', 200, { amount: 5 }, /^amount: /, 'CONV-amount-decimal'],
      ['user.withdraw', 202, { createdAt: 1767225600 }, /^createdAt: /, 'CONV-timestamp-utc'],
      ['webhooks.create', 201, { secret: 'plain' }, /^secret: must start with whsec_/, 'HOOK-secret-prefix'],
      ['position.cancel', 200, { rate: 'high' }, /^rate: /, 'CONV-rate-fraction'],
      // The two false failures of issue 47: an authenticated book's null maturity, a borrow's null matchedAt.
      ['orderbook.get', 200, { asset: 'USDC', maturity: null, lends: [], borrows: [] }, /^maturity: /, 'SHAPE-position'],
      ['borrow.create', 201, { positionId: 'b1', matchedAt: null }, /^matchedAt: /, 'SHAPE-position-matchedAt'],
    ];
    for (const [id, status, body, received, requirement] of cases) {
      const j = judge(defaultProfile, id, status, body);
      expect(j.failures, id).toEqual([]);
      expect(j.advisories[0], id).toMatchObject({ received: expect.stringMatching(received), requirement, expected: expect.stringMatching(/advice, not a failure/) });
    }
    // Nested fields are left alone: nothing says what they are.
    expect(judge(defaultProfile, 'position.cancel', 200, { position: { amount: 5 } }).advisories).toEqual([]);
    // A body the spec shows still fails on its own fields, citing the sentence that binds them.
    expect(judge(defaultProfile, 'public.orderbook', 200, { data: { lends: [{ rate: 0.05, amount: 5 }], borrows: [] }, timestamp: ts }).failures[0]).toMatchObject({ requirement: 'SHAPE-orderbook', received: expect.stringMatching(/^lends\.0\.amount/) });
  });

  it('holds a body to the id the profile names; the types it recorded are advice (seen once, or null)', () => {
    const p = parseProfile({ ids: { withdrawal: 'ref' }, responses: { 'POST /positions/{positionId}/repay': { fields: { left: 'string', closed: 'boolean' } } } });
    expect(judge(p, 'position.repay', 200, { left: '0', closed: true })).toMatchObject({ failures: [], advisories: [] });
    expect(judge(p, 'position.repay', 200, { left: null })).toMatchObject({ failures: [], advisories: [] });
    expect(judge(p, 'position.repay', 200, {})).toMatchObject({ failures: [], advisories: [] });
    const j = judge(p, 'position.repay', 200, { closed: 'yes' });
    expect(j.failures).toEqual([]);
    expect(j.advisories[0]).toMatchObject({ profile: 'responses["POST /positions/{positionId}/repay"].fields.closed', received: expect.stringMatching(/^closed: /) });
    expect(judge(p, 'user.withdraw', 202, { ref: 'w1' }).failures).toEqual([]);
    expect(judge(p, 'user.withdraw', 202, { id: 'w1' }).failures[0]).toMatchObject({ profile: 'ids (ref)', received: expect.stringMatching(/^ref: /) });
  });

  it('unwraps {data, timestamp} and leaves which endpoints wrap, and which 2xx, to the profile (choices, not failures)', () => {
    const j = judge(defaultProfile, 'public.tvl', 200, { points: [] });
    expect(j.failures).toEqual([]);
    expect(j.choices.find((c) => c.option === 'publicEnvelope["/analytics/tvl"]')).toMatchObject({ followed: false, received: 'bare' });
    expect(judge(defaultProfile, 'public.tvl', 200, { data: { x: 1 }, timestamp: 'yesterday' }).failures[0]?.expected).toMatch(/^the public wrapper/);
    expect(judge(defaultProfile, 'public.vaults', 200, { data: [1], timestamp: ts }).payload).toEqual([1]);
    expect(judge(defaultProfile, 'webhooks.create', 200, {}).choices[0]).toMatchObject({ option: 'successStatus["POST /webhooks"]', followed: false, received: '200' });
  });

  it('makes no success-status choice of a status the profile records as unknown (null), nor judges it against a default', () => {
    const p = { ...defaultProfile, successStatus: { ...defaultProfile.successStatus, 'POST /webhooks': null } };
    const j = judge(p, 'webhooks.create', 200, {});
    expect(j.failures).toEqual([]);
    expect(j.choices.filter((c) => c.option.startsWith('successStatus'))).toEqual([]);
  });

  it('fails a non-2xx, a body that is not JSON, and a wrong Content-Type', () => {
    expect(judge(defaultProfile, 'public.vaults', 404, { error: {} }).failures[0]?.expected).toMatch(/^a 2xx success/);
    expect(judgeSuccess(defaultProfile, ep(defaultProfile, 'public.vaults'), { status: 200, json: undefined, text: '<html>', contentType: 'application/json' }).failures[0]?.expected).toBe('a JSON body');
    expect(judge(defaultProfile, 'public.vaults', 200, { data: {}, timestamp: ts }, 'text/html').failures[0]?.expected).toBe('Content-Type application/json');
  });
});
