import { describe, expect, it } from 'vitest';
import { parseProfile } from '../contract/index.ts';
import type { CheckContext, ProfileObservation } from './check.ts';
import type { Reply } from './http.ts';
import { refusedForState } from './invalid-state.ts';

const reply = (status: number, code?: string): Reply => ({ status, json: code ? { error: { code, message: 'm' } } : {}, text: '', headers: {}, exchange: {} } as unknown as Reply);
const ctxOf = (invalidState: { status: number; code: string }) => {
  const seen: ProfileObservation[] = [];
  const ctx = { profile: parseProfile({ errors: { invalidState } }), profileChoice: (o: ProfileObservation) => seen.push(o) } as unknown as CheckContext;
  return { ctx, seen };
};

describe('refusedForState', () => {
  it("takes the profile's choice, even a 404 of the target's own code", () => {
    const { ctx, seen } = ctxOf({ status: 404, code: 'wrong_state' });
    expect(refusedForState(ctx, reply(404, 'wrong_state'))).toBe(true);
    expect(seen.map((o) => o.followed)).toEqual([true]);
  });

  it('takes another 4xx refusal as the invalid state, noted as not the profile\'s', () => {
    const { ctx, seen } = ctxOf({ status: 400, code: 'invalid_request' });
    expect(refusedForState(ctx, reply(409, 'conflict'))).toBe(true);
    expect(seen).toMatchObject([{ option: 'errors.invalidState', expected: '400 invalid_request', followed: false, received: '409 conflict' }]);
  });

  it('never takes what means something else: a missing position, funds, the key, the rate limit, a 5xx or no error object', () => {
    const { ctx, seen } = ctxOf({ status: 400, code: 'invalid_request' });
    for (const r of [reply(404, 'position_not_found'), reply(400, 'insufficient_funds'), reply(401, 'authentication_failed'), reply(429, 'rate_limit_exceeded'), reply(500, 'internal_error'), reply(409)]) {
      expect(refusedForState(ctx, r)).toBe(false);
    }
    expect(seen).toEqual([]);
  });
});
