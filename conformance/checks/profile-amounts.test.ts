import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { runAgainst } from '../testing/mutants/run.ts';

// Every amount a check sends comes from the profile's bounds: a target whose minimum order is 100
// refused the pagination checks' lends of 10 to 43 and concurrency.pagination-writes' 10 (issue 47,
// cause 4). The sandbox under that profile refuses anything smaller, naming amount.

describe('checks that lend many times, against a minimum order of 100', () => {
  it('send only amounts the profile allows, and pass', { timeout: 120_000 }, async () => {
    const profile = parseProfile({ amounts: { minOrder: '100', minWithdrawal: '100' } });
    const r = await runAgainst(async (req, next) => next(req), {
      profile,
      only: ['pagination.walk', 'pagination.stable-insert', 'concurrency.pagination-writes', 'lifecycle.lend-read-list', 'lifecycle.withdraw', 'endpoint.user.withdraw'],
    });
    expect(r.checks.map((c) => [c.id, c.status, c.message])).toEqual(r.checks.map((c) => [c.id, 'passed', undefined]));
    expect(r.checks.length).toBe(6);
  });

  it('and the storms, whose amounts were 100, 101 and 202, against a minimum of 250', { timeout: 180_000 }, async () => {
    const profile = parseProfile({ amounts: { minOrder: '250' } });
    const r = await runAgainst(async (req, next) => next(req), { profile, only: ['concurrency.conservation', 'concurrency.partner-isolation', 'concurrency.matching-no-overfill', 'pagination.walk'] });
    expect(r.checks.map((c) => [c.id, c.status, c.message])).toEqual(r.checks.map((c) => [c.id, 'passed', undefined]));
    expect(r.checks.length).toBe(4);
  });
});
