import { describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../../contract/index.ts';
import { runAgainst } from '../testing/mutants/run.ts';

// A key emptied just before the check (earlier checks, or a detection run, on the same key)
// cannot show Remaining fall below 0: the check waits for the bucket to refill instead of
// failing a correct target.

describe('limits.headers-decrease on a key emptied just before it', () => {
  it('waits for the refill and judges the fall', { timeout: 30_000 }, async () => {
    let drained = 0;
    const result = await runAgainst(
      async (req, next) => {
        // The first rates request with a key empties that key's real bucket first.
        if (!drained && req.headers.has('authorization') && routeOfRequest(defaultProfile, req)?.id === 'rates.get') {
          for (let r = await next(req.clone()); r.status !== 429 && drained < 5000; r = await next(req.clone())) drained++;
        }
        return next(req);
      },
      { only: ['limits.headers-decrease'] },
    );
    expect(drained).toBeGreaterThan(0);
    expect(result.checks.map((c) => [c.status, c.message])).toEqual([['passed', undefined]]);
  });
});

// A limiter path a target serves without a key may draw from the public bucket: the key's limiter
// checks skip naming ratesPath rather than judge the public bucket against the tier (issue 47, cause 1).
describe('the limiter checks on a rates path served without a key', () => {
  it('skip, naming the profile option, instead of measuring the public bucket', { timeout: 30_000 }, async () => {
    const rates = { rates: [], timestamp: new Date().toISOString() };
    const result = await runAgainst(
      async (req, next) => {
        if (!req.headers.has('authorization') && routeOfRequest(defaultProfile, req)?.id === 'rates.get') return new Response(JSON.stringify(rates), { status: 200, headers: { 'content-type': 'application/json' } });
        return next(req);
      },
      { only: ['limits.headers-decrease', 'limits.tiers', 'limits.refill'] },
    );
    expect(result.checks.map((c) => c.status)).toEqual(['skipped', 'skipped', 'skipped']);
    for (const c of result.checks) expect(c.message).toMatch(/ratesPath GET \/rates answered 200 without a key.*not known to be measured.*ratesPath in the profile file/);
  });
});
