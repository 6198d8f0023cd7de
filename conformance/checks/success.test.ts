import { describe, expect, it } from 'vitest';
import { defaultProfile, endpoints, type Profile } from '../../contract/index.ts';
import { CheckFailure, type AdviceSeen, type CheckContext, type ProfileObservation } from '../check.ts';
import type { Reply } from '../http.ts';
import { expectSuccess } from './success.ts';

// Conformance's success rule asks contract/assertable.ts, as the gate's contract step does: a
// correct service with its own field names at every "not shown" body passes; a spec-shown
// violation still fails; the sandbox's own shapes bind only under --strict.

const ts = '2026-01-01T00:00:00Z';
const reply = (status: number, json: unknown): Reply => ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(json), json, exchange: { method: 'GET', url: 'u', status, requestHeaders: {}, responseHeaders: {}, durationMs: 1 } });

function ctx(strict = false, profile: Profile = defaultProfile): CheckContext & { seen: ProfileObservation[]; notes: string[]; advice: AdviceSeen[] } {
  const seen: ProfileObservation[] = [];
  const notes: string[] = [];
  const advice: AdviceSeen[] = [];
  const c = {
    profile,
    strict,
    seen,
    notes,
    advice,
    note: (t: string) => notes.push(t),
    // As the runner: recorded, or under --strict a failure.
    advise: (a: AdviceSeen) => {
      if (strict) throw new CheckFailure('advice taken as a rule (--strict)', a.expected, a.received, undefined);
      advice.push(a);
    },
    profileChoice: (o: ProfileObservation) => {
      seen.push(o);
      if (strict && !o.followed) throw new CheckFailure(`deviation from profile option ${o.option} (--strict)`, o.expected, o.received ?? '', undefined);
    },
  };
  return c as unknown as CheckContext & { seen: ProfileObservation[]; notes: string[]; advice: AdviceSeen[] };
}

/** Another correct service's bodies, other field names at every point the spec does not show. */
const FOREIGN: Record<string, unknown> = {
  'borrow.create': { loanRef: 'l1', state: 'queued' },
  'position.repay': { paid: '1', remaining: '99' },
  'position.cancel': { ok: true },
  'position.patch': { updated: ['autoRollover'] },
  'user.withdraw': { ticket: 't1', state: 'queued' },
  'orderbook.get': { bids: [], asks: [] },
  'webhooks.create': { subscriptionRef: 's1' },
  'webhooks.list': [{ subscriptionRef: 's1' }],
  'webhooks.delete': { removed: 1 },
  'public.rates': { data: { quotes: {} }, timestamp: ts },
  'public.tvl': { data: { series: [[1, '2']] }, timestamp: ts },
  'public.volume': { data: [{ at: ts, total: '5' }], timestamp: ts },
  'public.rateSeries': { data: { history: [] }, timestamp: ts },
  'public.vaults': { data: { items: [{ slug: 'v' }] }, timestamp: ts },
  'public.vault': { data: { slug: 'v', yield: 0.04 }, timestamp: ts },
};

describe("conformance's success rule", () => {
  const notShown = endpoints(defaultProfile).filter((e) => e.responseSource === 'profile' && e.access !== 'sandbox');

  it('passes a foreign-shaped body at every point the spec does not show, without --strict', () => {
    expect(notShown.map((e) => e.id).sort()).toEqual(Object.keys(FOREIGN).sort());
    for (const e of notShown) {
      const c = ctx();
      const status = defaultProfile.successStatus[`${e.method} ${e.path}`] ?? 200;
      expect(() => expectSuccess(c, e, reply(status, FOREIGN[e.id])), e.id).not.toThrow();
      expect(c.seen.filter((o) => !o.followed), e.id).toEqual([]);
    }
  });

  it('still fails a spec-shown violation, citing the sentence that binds it', () => {
    const get = endpoints(defaultProfile).find((e) => e.id === 'position.get')!;
    expect(() => expectSuccess(ctx(), get, reply(200, { positionId: 'p1', status: 'pending' }))).toThrow(/\(SHAPE-position\)/);
  });

  it('advises on a spec-named field of another type in a not-shown body; --strict makes it a failure (issue 47)', () => {
    const book = notShown.find((e) => e.id === 'orderbook.get')!;
    const body = { asset: 'USDC', maturity: null, lends: [], borrows: [] };
    const c = ctx();
    expect(() => expectSuccess(c, book, reply(200, body))).not.toThrow();
    expect(c.advice).toEqual([expect.objectContaining({ requirement: 'SHAPE-position', received: expect.stringMatching(/^maturity: /) })]);
    expect(() => expectSuccess(ctx(true), book, reply(200, body))).toThrow(/maturity/);
    const repay = notShown.find((e) => e.id === 'position.repay')!;
    expect(() => expectSuccess(ctx(), repay, reply(200, { amount: 5 }))).not.toThrow();
  });

  it('holds a not-shown body to the sandbox\'s own shape only under --strict', () => {
    const repay = notShown.find((e) => e.id === 'position.repay')!;
    expect(() => expectSuccess(ctx(true), repay, reply(200, FOREIGN['position.repay']))).toThrow(/shapes\.position\.repay/);
  });
});
