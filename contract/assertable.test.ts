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

  it('holds the fields part 2 names to their types wherever they appear at the top of a not-shown body', () => {
    expect(judge(defaultProfile, 'position.repay', 200, { amount: 5 }).failures[0]?.received).toMatch(/^amount: /);
    expect(judge(defaultProfile, 'user.withdraw', 202, { createdAt: 1767225600 }).failures[0]?.received).toMatch(/^createdAt: /);
    expect(judge(defaultProfile, 'webhooks.create', 201, { secret: 'plain' }).failures[0]?.received).toMatch(/^secret: must start with whsec_/);
    expect(judge(defaultProfile, 'position.cancel', 200, { rate: 'high' }).failures[0]?.received).toMatch(/^rate: /);
    // Nested fields are left alone: nothing says what they are.
    expect(judge(defaultProfile, 'position.cancel', 200, { position: { amount: 5 } }).failures).toEqual([]);
  });

  it('holds a body to what the profile records: the types seen (or null), none required, and a named id required', () => {
    const p = parseProfile({ ids: { withdrawal: 'ref' }, responses: { 'POST /positions/{positionId}/repay': { fields: { left: 'string', closed: 'boolean' } } } });
    expect(judge(p, 'position.repay', 200, { left: '0', closed: true }).failures).toEqual([]);
    expect(judge(p, 'position.repay', 200, { left: null }).failures).toEqual([]);
    expect(judge(p, 'position.repay', 200, {}).failures).toEqual([]);
    expect(judge(p, 'position.repay', 200, { closed: 'yes' }).failures[0]).toMatchObject({ expected: "a body with the spec's field types and what the profile records", received: expect.stringMatching(/^closed: /) });
    expect(judge(p, 'user.withdraw', 202, { ref: 'w1' }).failures).toEqual([]);
    expect(judge(p, 'user.withdraw', 202, { id: 'w1' }).failures[0]?.received).toMatch(/^ref: /);
  });

  it('unwraps {data, timestamp} and leaves which endpoints wrap, and which 2xx, to the profile (choices, not failures)', () => {
    const j = judge(defaultProfile, 'public.tvl', 200, { points: [] });
    expect(j.failures).toEqual([]);
    expect(j.choices.find((c) => c.option === 'publicEnvelope["/analytics/tvl"]')).toMatchObject({ followed: false, received: 'bare' });
    expect(judge(defaultProfile, 'public.tvl', 200, { data: { x: 1 }, timestamp: 'yesterday' }).failures[0]?.expected).toMatch(/^the public wrapper/);
    expect(judge(defaultProfile, 'public.vaults', 200, { data: [1], timestamp: ts }).payload).toEqual([1]);
    expect(judge(defaultProfile, 'webhooks.create', 200, {}).choices[0]).toMatchObject({ option: 'successStatus["POST /webhooks"]', followed: false, received: '200' });
  });

  it('fails a non-2xx, a body that is not JSON, and a wrong Content-Type', () => {
    expect(judge(defaultProfile, 'public.vaults', 404, { error: {} }).failures[0]?.expected).toMatch(/^a 2xx success/);
    expect(judgeSuccess(defaultProfile, ep(defaultProfile, 'public.vaults'), { status: 200, json: undefined, text: '<html>', contentType: 'application/json' }).failures[0]?.expected).toBe('a JSON body');
    expect(judge(defaultProfile, 'public.vaults', 200, { data: {}, timestamp: ts }, 'text/html').failures[0]?.expected).toBe('Content-Type application/json');
  });
});
