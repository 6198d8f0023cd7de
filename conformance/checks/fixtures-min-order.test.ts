import { describe, expect, it } from 'vitest';
import { parseProfile, type ProfileInput } from '../../contract/index.ts';
import { runChecks } from '../runner.ts';
import { withServed } from '../testing/served.ts';

// Part 8: "Minimum ... order amounts: not shown". A profile whose amounts.minOrder detection did
// not read keeps the default 1; a target whose floor is higher refuses the lends sent under it,
// naming the amount. That refusal is the profile's gap (a skip naming amounts.minOrder), not a
// failure of POST /lend (issue 47 item 3).

function run(profile: ProfileInput) {
  return withServed({ profile: parseProfile({ amounts: { minOrder: '5000' } }) }, async (t) =>
    (await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile: parseProfile(profile), only: ['lifecycle.cancel'] })).checks);
}

describe('a minimum order above the profile\'s', () => {
  it('skips the lend that needs it, naming amounts.minOrder', async () => {
    const [c] = await run({});
    expect(c?.status, c?.message).toBe('skipped');
    expect(c?.message).toMatch(/must be at least 5000.*profile amounts\.minOrder/);
  }, 60_000);

  it('runs where the profile file gives the floor', async () => {
    const [c] = await run({ amounts: { minOrder: '5000' } });
    expect(c?.status, c?.message).toBe('passed');
  }, 60_000);
});
