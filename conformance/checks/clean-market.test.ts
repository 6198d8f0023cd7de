import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, resolveCall, type PartnerEndpointId } from '../../contract/index.ts';
import type { CheckContext } from '../check.ts';
import { bookRates, cleanMarket, gapRates } from './clean-market.ts';

// The free rate comes from the PUBLIC order book, whose body the spec shows (part 2), never from
// the authenticated one, whose body is not shown (issue 47, mutator seeds 1 and 13: its levels
// renamed or nested, conformance could not read them, guessed 0.0001 and crossed a resting borrow).

const reply = (json: unknown, status = 200) => ({ status, json, text: JSON.stringify(json), headers: {} });

function fakeCtx(o: { pub: Record<string, unknown>; api?: unknown; profile?: typeof defaultProfile }) {
  const seen: string[] = [];
  const profile = o.profile ?? defaultProfile;
  const ctx = {
    profile,
    shared: new Map<string, unknown>(),
    // An endpoint called by its id: a public one answers as the public base does, another as the keyed one.
    call: async (id: PartnerEndpointId, input: { params?: Record<string, string> } = {}) => {
      const r = resolveCall(profile, id, input.params);
      return r.access === 'public' ? ctx.pub('GET', r.path) : ctx.api('GET', r.path);
    },
    pub: async (_m: string, path: string) => {
      seen.push(`pub ${path}`);
      return path in o.pub ? reply(o.pub[path]) : reply({ error: { code: 'not_found', message: 'no' } }, 404);
    },
    api: async (_m: string, path: string) => {
      seen.push(`api ${path}`);
      return reply(o.api ?? {});
    },
  };
  return { ctx: ctx as unknown as CheckContext, seen };
}

describe('the free rate of a clean market', () => {
  it('reads the public book of the market GET /markets lists, not the authenticated one whose levels a target may rename', async () => {
    const p = parseProfile({ markets: { maturities: ['30d'], idSeparator: '~' }, lifecycle: { defaultMaturity: '30d' } });
    const { ctx, seen } = fakeCtx({
      profile: p,
      pub: {
        '/markets': { markets: [{ id: 'USDC~30d', asset: 'USDC', maturity: '30d', lendRate: 0.05, borrowRate: 0.06, totalLent: '1', totalBorrowed: '1' }] },
        // A resting borrow at 0.03 (in the {data, timestamp} wrapper the profile may give the public book).
        '/markets/USDC~30d/orderbook': { data: { lends: [], borrows: [{ rate: 0.03, amount: '100' }] }, timestamp: '2026-11-28T00:00:00Z' },
      },
      // The authenticated book, its levels nested one level down: unreadable, and not asked.
      api: { asset: 'USDC', book: { lends: [], borrows: [] } },
    });
    const m = await cleanMarket(ctx, 'USDC', 1);
    expect(m.found).toMatchObject({ maturity: '30d', rates: [0.04] });
    expect(seen.filter((s) => s.startsWith('api'))).toEqual([]);
  });

  it('takes the spec\'s book bare or wrapped, and nothing else', () => {
    expect(bookRates({ lends: [{ rate: 0.1, amount: '1' }], borrows: [] })).toEqual({ lends: [0.1], borrows: [] });
    expect(bookRates({ data: { lends: [], borrows: [{ rate: 0.02, amount: '1' }] }, timestamp: 't' })).toEqual({ lends: [], borrows: [0.02] });
    expect(bookRates({ items: { lends: [] } })).toBeUndefined();
  });

  it('keeps free rates below the profile\'s rate bound', () => {
    expect(gapRates({ lends: [], borrows: [0.3] }, 3, 0.4)).toBeUndefined();
    expect(gapRates({ lends: [], borrows: [0.25] }, 2, 0.4)).toEqual([0.3, 0.35]);
  });
});
