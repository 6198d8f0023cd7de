import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, routeOfRequest } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { runChecks } from '../runner.ts';
import { runAgainst } from '../testing/mutants/run.ts';

// Part 7 leaves the code for an unknown user open ("not shown"): partner 2 listing a user it
// never named may get an empty list or any 4xx error object that discloses nothing. A 404
// user_not_found failed auth.isolation before (issue 47, cause 6); now it is a profile note.

const userNotFound = (status: number, code: string) => async (req: Request, next: (r: Request) => Promise<Response>) => {
  // The endpoint the request reached, through the one router (runAgainst serves the default profile).
  if (routeOfRequest(defaultProfile, req)?.id === 'positions.list' && req.headers.get('authorization')?.includes('partner_b')) {
    return new Response(JSON.stringify({ error: { code, message: 'no such user for this partner' } }), { status, headers: { 'content-type': 'application/json' } });
  }
  return next(req);
};

describe('auth.isolation: the list of a user partner 2 never named', () => {
  it('takes a 404 user_not_found (a code the spec leaves open) as a refusal, noting the profile choice', { timeout: 60_000 }, async () => {
    const r = await runAgainst(userNotFound(404, 'user_not_found'), { only: ['auth.isolation'] });
    expect(r.checks.map((c) => [c.id, c.status, c.message])).toEqual([['auth.isolation', 'passed', undefined]]);
    expect(r.checks[0]!.notes.join(' ')).toMatch(/errors\.unknownUser.*404 user_not_found/);
  });

  it('takes a 403 with any code too', { timeout: 60_000 }, async () => {
    const r = await runAgainst(userNotFound(403, 'forbidden'), { only: ['auth.isolation'] });
    expect(r.checks.map((c) => c.status)).toEqual(['passed']);
  });

  it('and the authorization matrix judges that list by what it discloses, not by its code', { timeout: 90_000 }, async () => {
    const r = await runAgainst(userNotFound(404, 'user_not_found'), { only: ['authz.matrix'] });
    expect(r.checks.map((c) => [c.id, c.status, c.message])).toEqual([['authz.matrix', 'passed', undefined]]);
  });
});

describe('auth.missing-header with the rates path unknown (ratesPath null)', () => {
  it('asks every other keyed endpoint, and says the rates path was not asked and which option gives it', { timeout: 60_000 }, async () => {
    const sb = await startSandboxServer({ validateResponses: false });
    try {
      const r = await runChecks({ baseUrl: sb.url, apiKey: 'ck_test_partner_a_scale', profile: parseProfile({ ratesPath: null }), only: ['auth.missing-header'] });
      expect(r.checks.map((c) => [c.id, c.status])).toEqual([['auth.missing-header', 'passed']]);
      expect(r.checks[0]!.notes.join(' ')).toMatch(/ratesPath null.*give it as ratesPath in the profile file/);
    } finally {
      await sb.close();
    }
  });
});
