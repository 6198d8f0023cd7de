import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import type { EmbeddedTarget } from '../embedded.ts';
import { runChecks, type ConformanceResult } from '../runner.ts';
import { withServed } from '../testing/served.ts';

// The suite is a CI gate run again and again against one long-lived sandbox, so a run meets
// earlier runs' leftovers (and anyone's orders) in the shared order books. A correct service
// that kept them is still correct: every run must reach the same verdicts, with no failure.
// The sandbox is met as a partner meets it: rate limits on, no controls.

const KEYS = [
  { key: 'ck_test_rerun_a', partnerId: 'partner_a', tier: 'growth' },
  { key: 'ck_test_rerun_a_starter', partnerId: 'partner_a', tier: 'starter' },
  { key: 'ck_test_rerun_b', partnerId: 'partner_b', tier: 'growth' },
];
const STARTER = KEYS[1]!.key;

// The checks that trade matched pairs, and the one that rests a borrow of its own.
const ONLY = ['endpoint.position.repay', 'lifecycle.match', 'lifecycle.repay', 'lifecycle.patch', 'concurrency.repay-once', 'concurrency.matching-no-overfill'];
const LONGEST = defaultProfile.markets.maturities.filter((m) => m !== defaultProfile.lifecycle.defaultMaturity).at(-1)!;

const verdicts = (r: ConformanceResult) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));
const failures = (r: ConformanceResult) => r.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`);

function run(t: EmbeddedTarget, over: { apiKey?: string; only?: string[]; maxWaitMs?: number } = {}): Promise<ConformanceResult> {
  return runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, keyTiers: t.keyTiers, profile: defaultProfile, only: ONLY, seed: 20261127, say: () => {}, ...over });
}

async function call(t: EmbeddedTarget, key: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function book(t: EmbeddedTarget, maturity: string): Promise<{ lends: unknown[]; borrows: unknown[] }> {
  return (await (await call(t, t.apiKey, 'GET', `/markets/USDC/orderbook?maturity=${maturity}`)).json()) as { lends: unknown[]; borrows: unknown[] };
}

/** Spends a key's bucket down to `left` requests (read from X-RateLimit-Remaining). */
async function drain(t: EmbeddedTarget, key: string, left: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const r = await call(t, key, 'GET', '/users/drain/positions');
    await r.arrayBuffer();
    if (Number(r.headers.get('x-ratelimit-remaining')) <= left) return;
  }
  throw new Error('the bucket did not drain');
}

const withSandbox = (body: (t: EmbeddedTarget) => Promise<void>): Promise<void> =>
  withServed({ profile: defaultProfile, controls: false, keys: KEYS, validateResponses: false }, body);

describe('runs again and again against one sandbox', () => {
  it('a run cut short by the rate limit leaves no resting order, and the next two runs pass alike', { timeout: 120_000 }, () =>
    withSandbox(async (t) => {
      // A drained Starter key and a 1 s --max-wait: the matching check has placed its resting
      // borrow when its storm finds no room, and skips (as a CI run on a busy key does).
      await drain(t, STARTER, 6);
      const cut = await run(t, { apiKey: STARTER, only: ['concurrency.matching-no-overfill'], maxWaitMs: 1_000 });
      expect(cut.checks.map((c) => [c.id, c.status])).toEqual([['concurrency.matching-no-overfill', 'skipped']]);
      expect(cut.checks[0]!.message).toMatch(/max-wait/);
      const resting = (await book(t, LONGEST)).borrows;
      const first = await run(t);
      // The markets besides the default one, where the pairs and the matching check trade (the
      // default one keeps the resting lends other checks leave at 50 %, which cross nothing).
      const traded = defaultProfile.markets.maturities.filter((m) => m !== defaultProfile.lifecycle.defaultMaturity);
      const books = async () => Promise.all(traded.map(async (m) => ({ ...(await book(t, m)), timestamp: m })));
      const afterFirst = await books();
      const second = await run(t);
      // Nothing of these checks accumulates there: the matching check's unfilled takers are cancelled too.
      expect(await books()).toEqual(afterFirst);
      expect(failures(first).join('\n')).toBe('');
      expect(failures(second).join('\n')).toBe('');
      expect(resting, 'the skipped check cancelled its resting borrow').toEqual([]);
      expect(verdicts(second)).toEqual(verdicts(first));
      expect(Object.values(verdicts(second)).filter((s) => s === 'passed')).toHaveLength(ONLY.length);
    }));

  it("someone else's resting borrow in the pairs' market does not fail a second run", { timeout: 120_000 }, () =>
    withSandbox(async (t) => {
      const first = await run(t);
      expect(failures(first).join('\n')).toBe('');
      // Partner B's own borrow resting where the pairs trade: every lend at a lower rate
      // crosses it, so a pair at a fixed low rate would meet it first.
      const body = { userId: 'b-user', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '100', rate: 0.1, maturity: LONGEST };
      const left = await call(t, t.apiKey2!, 'POST', '/borrow', body);
      expect(left.status, await left.clone().text()).toBeLessThan(300);
      expect((await book(t, LONGEST)).borrows).toHaveLength(1);
      const second = await run(t);
      expect(failures(second).join('\n')).toBe('');
      expect(verdicts(second)).toEqual(verdicts(first));
    }));
});
