import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { scenarioEnv } from './env.ts';

// The scenarios place orders and withdrawals of the amounts this env gives: from the profile's
// bounds, never a fixed 100 a target's minimum order may refuse (issue 47, cause 4).

const input = { scenario: 'mixed', tier: 'growth', publicMode: false, smoke: true, baseUrl: 'http://t/v1', runId: 'r' } as const;

describe('scenarioEnv amounts', () => {
  it('are 100 and 1 under the default bounds', () => {
    expect(scenarioEnv(parseProfile({}), input)).toMatchObject({ ORDER_AMOUNT: '100', WITHDRAW_AMOUNT: '1' });
  });
  it('rise to the profile\'s minimums, and the collateral with them', () => {
    const low = scenarioEnv(parseProfile({}), input);
    const env = scenarioEnv(parseProfile({ amounts: { minOrder: '250', minWithdrawal: '20' } }), input);
    expect(env).toMatchObject({ ORDER_AMOUNT: '250', WITHDRAW_AMOUNT: '20' });
    expect(Number(env.COLLATERAL_AMOUNT)).toBeGreaterThan(Number(low.COLLATERAL_AMOUNT));
  });
});
