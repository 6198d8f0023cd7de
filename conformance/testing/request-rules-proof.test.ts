import { describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../../contract/index.ts';
import { EXAMPLE_PROFILES, exampleProfile } from '../../examples/profiles/load.ts';
import { CAUGHT_ELSEWHERE, runFamily } from '../concurrency/testing/proof.ts';

// Proof of issue 51 under every example profile, controls off: the clean sandbox passes the
// checks that run the request rules generated from the contract, and the sandbox with the three
// request-rule faults fails each one's catching check. (As a user runs it, limits on and a
// detected profile: docs/conformance.md; under seeded choices: bench/neutrality/faults.ts.)

const FAULTS = ['lend-asset-from-collateral', 'depth-ignored-below-default', 'hasmore-on-full-last-page'];
const CHECKS = FAULTS.map((f) => CAUGHT_ELSEWHERE[f]!);
/** The other checks that run generated cases or stable walks: a clean sandbox passes them under every profile too. */
const ALSO = ['errors.invalid.query', 'errors.invalid.borrow', 'errors.invalid.withdraw', 'errors.invalid.repay', 'errors.invalid.patch', 'errors.invalid.webhooks', 'pagination.walk', 'pagination.filters'];

describe('request rules generated from the contract catch their faults', () => {
  for (const name of ['default', ...EXAMPLE_PROFILES]) {
    it(`profile ${name}: clean passes ${CHECKS.join(', ')} and the other generated-case checks; with the faults each of the three fails`, async () => {
      const profile = exampleProfile(name);
      const clean = await runFamily({ only: [...CHECKS, ...ALSO], profile, controls: false });
      for (const id of [...CHECKS, ...ALSO]) {
        const c = clean.checks.find((x) => x.id === id)!;
        expect(c.status, `clean ${id}: ${c.message ?? ''}`).toBe('passed');
      }
      const bad = await runFamily({ faults: FAULTS.map((n) => ({ name: n })), only: CHECKS, profile, controls: false });
      for (const id of CHECKS) {
        const c = bad.checks.find((x) => x.id === id)!;
        expect(c.status, `faulty ${id}: ${c.message ?? ''}`).toBe('failed');
      }
      expect(bad.checks.find((x) => x.id === 'errors.invalid.lend')!.message).toMatch(/asset as (ETH|WBTC)/);
      expect(bad.checks.find((x) => x.id === 'orderbook.depth')!.message).toMatch(/depth=1 gives at most 1/);
      expect(bad.checks.find((x) => x.id === 'pagination.edges')!.message).toMatch(/hasMore true/);
    }, 90_000);
  }

  it('orderbook.depth fails a book that ignores its maturity filter (a proxy drops it), naming BOOK-maturity-filter', async () => {
    const r = await runFamily({
      only: ['orderbook.depth'],
      controls: false,
      wrap: (req, next) => {
        const u = new URL(req.url);
        if (!['orderbook.get', 'public.orderbook'].includes(routeOfRequest(defaultProfile, req)?.id ?? '') || !u.searchParams.has('maturity')) return next(req);
        u.searchParams.delete('maturity');
        return next(new Request(u, req));
      },
    });
    const c = r.checks[0]!;
    expect(c.status, c.message ?? '').toBe('failed');
    expect(c.message).toMatch(/BOOK-maturity-filter/);
  }, 60_000);
});
