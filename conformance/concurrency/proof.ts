import { readFileSync } from 'node:fs';
import { defaultProfile, parseProfile, type Profile } from '../../contract/index.ts';
import type { FaultSetting } from '../../sandbox/faults/index.ts';
import { serveWrapped } from '../embedded.ts';
import { runChecks, type ConformanceResult } from '../runner.ts';

// The proof's pieces, shared by proof.test.ts (in `npm test`) and measure.ts (the 20-run
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
};

export const EXAMPLE_PROFILES = ['fintech-rest', 'minimal-sandbox', 'strict-gateway'];

export function exampleProfile(name: string): Profile {
  return parseProfile(JSON.parse(readFileSync(new URL(`../../examples/profiles/${name}.json`, import.meta.url), 'utf8')));
}

export async function runFamily(o: { faults?: FaultSetting[]; only?: string[]; profile?: Profile; controls?: boolean; wrap?: Parameters<typeof serveWrapped>[0] } = {}): Promise<ConformanceResult> {
  const profile = o.profile ?? defaultProfile;
  const t = await serveWrapped(o.wrap ?? ((req, next) => next(req)), { profile, controls: o.controls, ...(o.faults ? { faults: o.faults } : {}) });
  try {
    return await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile, only: o.only ?? ['concurrency.*'] });
  } finally {
    await t.close();
  }
}
