import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { serveWrapped, type EmbeddedTarget } from '../embedded.ts';
import { runChecks, type ConformanceResult } from '../runner.ts';

// The suite is a CI gate run again and again against one long-lived sandbox, so a run meets
// earlier runs' leftovers (and anyone's orders) in the shared order books. A correct service
// that kept them is still correct: every run must reach the same verdicts, with no failure.
// The sandbox is met as a partner meets it: rate limits on, no controls.

const KEYS = [
  { key: 'ck_test_rerun_a', partnerId: 'partner_a', tier: 'growth' },
  { key: 'ck_test_rerun_a_starter', partnerId: 'partner_a', tier: 'starter' },
  { key: 'ck_test_rerun_b', partnerId: 'partner_b', tier: 'growth' },
];

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

async function withSandbox(body: (t: EmbeddedTarget) => Promise<void>): Promise<void> {
  const t = await serveWrapped((req, next) => next(req), { profile: defaultProfile, controls: false, keys: KEYS, validateResponses: false });
  try {
    await body(t);
  } finally {
    await t.close();
  }
}

describe('runs again and again against one sandbox', () => {
  it("someone else's resting borrow in the pairs' market does not fail a second run", { timeout: 120_000 }, () =>
    withSandbox(async (t) => {
      const first = await run(t);
      expect(failures(first).join('\n')).toBe('');
      // Partner B's own borrow, below the lends the first run left resting there: every lend
      // at a lower rate crosses it, so a pair at a fixed low rate would meet it first.
      const body = { userId: 'b-user', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '100', rate: 0.1, maturity: LONGEST };
      const left = await call(t, t.apiKey2!, 'POST', '/borrow', body);
      expect(left.status, await left.clone().text()).toBeLessThan(300);
      expect((await book(t, LONGEST)).borrows).toHaveLength(1);
      const second = await run(t);
      expect(failures(second).join('\n')).toBe('');
      expect(verdicts(second)).toEqual(verdicts(first));
    }));
});
