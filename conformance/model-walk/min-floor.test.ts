import { describe, expect, it } from 'vitest';
import { parseProfile, type ProfileInput } from '../../contract/index.ts';
import { runChecks } from '../runner.ts';
import { withServed } from '../testing/served.ts';

// Part 8: "Minimum and maximum order ... and withdrawal amounts: not shown". A profile that keeps
// the default floor of 1 (detection did not read the target's) must not have the walk fail a
// target refusing its small amounts as below its own floor: that is the profile's gap, a skip
// naming the option (issue 47 item 3).

const FLOOR = { amounts: { minOrder: '5000', minWithdrawal: '5000' } };

function walk(profile: ProfileInput) {
  return withServed({ profile: parseProfile(FLOOR) }, async (t) =>
    (await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile: parseProfile(profile), only: ['model.ledger-walk'] })).checks);
}

describe('the ledger walk and a floor above the profile\'s', () => {
  it('skips naming the amount option', async () => {
    const [c] = await walk({});
    expect(c?.status, c?.message).toBe('skipped');
    expect(c?.message).toMatch(/refused below the target's floor.*must be at least 5000.*profile amounts\.min(Order|Withdrawal)/);
  }, 90_000);

  it('walks where the profile file gives the floors', async () => {
    const [c] = await walk(FLOOR);
    expect(c?.status, c?.message).toBe('passed');
  }, 90_000);
});
