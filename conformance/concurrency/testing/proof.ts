import { defaultProfile, type Profile } from '../../../contract/index.ts';
import type { FaultSetting } from '../../../sandbox/faults/index.ts';
import { serveWrapped } from '../../embedded.ts';
import { runChecks, type ConformanceResult } from '../../runner.ts';
import { HttpClient } from '../../http.ts';
import { callSpec } from '../../call.ts';
import type { TierName } from '../../../contract/index.ts';

/** Sends reads on `key` until the target answers 429: the bucket is empty. */
async function drain(baseUrl: string, key: string): Promise<void> {
  const http = new HttpClient({ baseUrl });
  try {
    for (let i = 0; i < 5_000; i++) if ((await http.send(callSpec(defaultProfile, 'public.markets', { key }))).status === 429) return;
    throw new Error(`the bucket of ${baseUrl} never emptied`);
  } finally {
    await http.close();
  }
}

// The proof's pieces, shared by proof.test.ts (in `npm test`) and bench/concurrency-measure.ts (the 20-run
// figures): the concurrency family against an in-process sandbox served over real HTTP, with
// or without faults, controls, and another profile.

/** Each fault, and the check of the family that must fail when it is on. */
export const CAUGHT_BY: Record<string, string> = {
  'withdraw-race': 'concurrency.withdraw-overcommit',
  'lend-race': 'concurrency.lend-overcommit',
  'borrow-race': 'concurrency.borrow-overcommit',
  'cancel-race': 'concurrency.cancel-once',
  'repay-race': 'concurrency.repay-once',
  'patch-lost-update': 'concurrency.patch-no-lost-update',
  'cursor-shift': 'concurrency.pagination-writes',
  'counter-race': 'concurrency.lend-overcommit',
  'partner-leak': 'concurrency.partner-isolation',
  'match-overfill': 'concurrency.matching-no-overfill',
  'stale-read': 'concurrency.read-after-write',
};

/**
 * The sequential money faults need no overlap, so no storm of this family is their proof: the
 * model walk and the linearizability storm catch them (conformance/model-walk/walk.test.ts,
 * conformance/concurrency/linearize/storm-check.test.ts).
 */
export const CAUGHT_ELSEWHERE: Record<string, string> = {
  'withdraw-not-debited': 'model.ledger-walk',
  'cancel-double-refund': 'model.ledger-walk',
  // Authorization between partners, one request each, no overlap: the matrix (conformance/authz/testing/proof.test.ts).
  'owner-unchecked-get': 'authz.matrix',
  'owner-unchecked-cancel': 'authz.matrix',
  'owner-unchecked-patch': 'authz.matrix',
  'owner-unchecked-repay': 'authz.matrix',
  'list-ignores-partner': 'authz.matrix',
  'user-unscoped': 'authz.matrix',
  // Request rules generated from the contract (issue 51): one request or one walk each, no overlap.
  'lend-asset-from-collateral': 'errors.invalid.lend',
  'depth-ignored-below-default': 'orderbook.depth',
  'hasmore-on-full-last-page': 'pagination.edges',
};

export async function runFamily(o: { faults?: FaultSetting[]; only?: string[]; profile?: Profile; controls?: boolean; wrap?: Parameters<typeof serveWrapped>[0]; drainedTier?: TierName } = {}): Promise<ConformanceResult> {
  const profile = o.profile ?? defaultProfile;
  // drainedTier: both partners hold one key of that tier, and partner 1's bucket is emptied
  // before the family runs, as the checks before it left it in a whole run: the budget must wait.
  const keys = o.drainedTier ? [{ key: `ck_test_drained_a_${o.drainedTier}`, partnerId: 'partner_a', tier: o.drainedTier }, { key: `ck_test_drained_b_${o.drainedTier}`, partnerId: 'partner_b', tier: o.drainedTier }] : undefined;
  const t = await serveWrapped(o.wrap ?? ((req, next) => next(req)), { profile, controls: o.controls, ...(keys ? { keys } : {}), ...(o.faults ? { faults: o.faults } : {}) });
  try {
    if (o.drainedTier) await drain(t.url, t.apiKey);
    return await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile, only: o.only ?? ['concurrency.*'], say: () => {} });
  } finally {
    await t.close();
  }
}
