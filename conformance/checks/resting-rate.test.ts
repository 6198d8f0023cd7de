import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, routeOfRequest } from '../../contract/index.ts';
import { runAgainst } from '../testing/mutants/run.ts';

// Issue 47, the mutator's seed 12: a correct target whose rate bound is 0.5 (the spec shows none)
// refused every resting lend at the fixed 0.5, and 31 checks failed "rate: must be below 0.5".
// The rate comes from the profile's bound, else from the market's published rates; a refusal
// naming rate is a skip naming bounds.rateBelow, never a failure.

/** The sandbox, but every lend asking `at` or more is refused with invalid_request naming rate. */
const refuseRatesFrom = (at: number) => async (req: Request, next: (r: Request) => Promise<Response>): Promise<Response> => {
  if (routeOfRequest(defaultProfile, req)?.id === 'lend.create') {
    const body = (await req.clone().json().catch(() => ({}))) as { rate?: unknown };
    if (typeof body.rate === 'number' && body.rate >= at) {
      return new Response(JSON.stringify({ error: { code: 'invalid_request', message: `rate: must be below ${at}` } }), { status: 400, headers: { 'content-type': 'application/json' } });
    }
  }
  return next(req);
};

const CHECKS = ['lifecycle.lend-read-list', 'endpoint.position.cancel', 'lifecycle.withdraw', 'orderbook.depth', 'concurrency.partner-isolation', 'auth.isolation'];

describe('resting lends against a target whose rates must be below 0.5', () => {
  it('pass with no bound known (rates above the market\'s published ones) and with the bound known', { timeout: 180_000 }, async () => {
    for (const rateBelow of [null, 0.5]) {
      const r = await runAgainst(refuseRatesFrom(0.5), { profile: parseProfile({ bounds: { rateBelow } }), only: CHECKS });
      expect(r.checks.map((c) => [rateBelow, c.id, c.status, c.message])).toEqual(r.checks.map((c) => [rateBelow, c.id, 'passed', undefined]));
      expect(r.checks.length).toBe(CHECKS.length);
    }
  });

  it('skip, naming bounds.rateBelow, where the target refuses every rate lendcheck would rest at', { timeout: 120_000 }, async () => {
    const r = await runAgainst(refuseRatesFrom(0.01), { profile: parseProfile({ bounds: { rateBelow: null } }), only: ['lifecycle.lend-read-list', 'endpoint.position.cancel'] });
    for (const c of r.checks) {
      expect(c.status).toBe('skipped');
      expect(c.message).toMatch(/bounds\.rateBelow/);
    }
  });
});
