import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, routeOfRequest } from '../../../contract/index.ts';
import { EXAMPLE_PROFILES, exampleProfile } from '../../../examples/profiles/load.ts';
import { runFamily } from './proof.ts';

// Never fail a correct service: the clean sandbox passes the whole family, with controls and
// without (as a real partner sandbox), under the default profile and the example profiles, and
// when it gives no insufficient_funds details (funds found by search). Every check either
// passes or skips with a reason; none fails.

function expectClean(r: Awaited<ReturnType<typeof runFamily>>, what: string) {
  const bad = r.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`);
  expect(bad, what).toEqual([]);
  for (const c of r.checks.filter((x) => x.status === 'skipped')) expect(c.message, `${c.id} skips with a reason`).toBeTruthy();
  expect(r.checks.filter((c) => c.status === 'passed').length, `${what}: checks passed`).toBeGreaterThanOrEqual(10);
}

describe('the clean sandbox passes the concurrency family', () => {
  it('default profile, with and without controls', async () => {
    expectClean(await runFamily(), 'default profile with controls');
    const r = await runFamily({ controls: false });
    expectClean(r, 'default profile without controls');
    // read-after-write reads back the writes the storms made: one request, the cancel's read.
    const raw = r.checks.find((c) => c.id === 'concurrency.read-after-write')!;
    expect(raw.requests).toBe(1);
    expect(raw.notes.join('\n')).toMatch(/cancelled by concurrency\.cancel-once, read status cancelled/);
  }, 60_000);

  for (const name of EXAMPLE_PROFILES) {
    it(`profile ${name}, without controls`, async () => {
      expectClean(await runFamily({ profile: exampleProfile(name), controls: false }), name);
    }, 60_000);
  }

  it('a target whose rate limit answers 429 to every other withdrawal and cancel: 429s count as not accepted, never a failure', async () => {
    let n = 0;
    const limited = async (req: Request) => ['user.withdraw', 'position.cancel'].includes(routeOfRequest(defaultProfile, req)?.id ?? '') && !(await req.clone().text()).includes('1000000000000000');
    const r = await runFamily({
      only: ['concurrency.withdraw-overcommit', 'concurrency.cancel-once', 'concurrency.conservation'],
      wrap: async (req, next) =>
        (await limited(req)) && n++ % 2 === 1
          ? Response.json({ error: { code: 'rate_limit_exceeded', message: 'too many requests' } }, { status: 429 })
          : next(req),
    });
    expect(r.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(r.checks.filter((c) => c.status === 'passed').length).toBeGreaterThanOrEqual(2);
    expect(r.checks.flatMap((c) => c.notes).join('\n')).toMatch(/answered 429 during the storm and count as not accepted/);
  }, 90_000);

  it('a target without insufficient_funds details: funds found by search', async () => {
    const r = await runFamily({ profile: parseProfile({ errors: { insufficientFundsDetails: false } }) });
    expectClean(r, 'no details');
    expect(r.checks.flatMap((c) => c.notes).join('\n')).toMatch(/learned by search/);
  }, 90_000);
});
