import { defaultProfile, type Profile } from '../../../contract/index.ts';
import type { FaultSetting } from '../../../sandbox/faults/index.ts';
import { serveWrapped } from '../../embedded.ts';
import { runChecks, type ConformanceResult } from '../../runner.ts';

// The authorization matrix's proof, shared by proof.test.ts: the reference sandbox served over
// real HTTP with its controls off (a partner's sandbox), one authorization fault at a time
// (sandbox/faults/, sandbox/webhooks/faults/), and what the failing finding must name: the
// endpoint, the verb and both partners.

export const AUTHZ_CHECKS = ['authz.matrix', 'authz.webhook-url'];

/** Each authorization fault: the endpoint and verb the matrix's finding must name. */
export const CAUGHT_BY: Record<string, { route: string; verb: string }> = {
  'owner-unchecked-get': { route: 'GET /positions/{positionId}', verb: 'read' },
  'owner-unchecked-cancel': { route: 'POST /positions/{positionId}/cancel', verb: 'change' },
  'owner-unchecked-patch': { route: 'PATCH /positions/{positionId}', verb: 'change' },
  'owner-unchecked-repay': { route: 'POST /positions/{positionId}/repay', verb: 'change' },
  'list-ignores-partner': { route: 'GET /users/{userId}/positions', verb: 'list' },
  'user-unscoped': { route: 'POST /lend', verb: 'create' },
  'webhook-list-ignores-partner': { route: 'GET /webhooks', verb: 'list' },
  'webhook-delete-unchecked': { route: 'DELETE /webhooks/{webhookId}', verb: 'change' },
};

/** Whether a failure message names the cell and both partners. */
export function namesCell(message: string, cell: { route: string; verb: string }): boolean {
  return message.includes(cell.route) && message.includes(`verb ${cell.verb}`) && message.includes('partner A (--api-key)') && message.includes('partner B (--api-key-2)');
}

/** `judge`: the profile the suite reads, when it differs from the one the sandbox serves (a requirement the target does not meet); `wrap`: a door in front of it that changes answers. */
export async function runAuthz(faults: FaultSetting[] = [], profile: Profile = defaultProfile, judge: Profile = profile, wrap: Parameters<typeof serveWrapped>[0] = (req, next) => next(req)): Promise<ConformanceResult> {
  const t = await serveWrapped(wrap, { profile, controls: false, faults });
  try {
    return await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile: judge, only: AUTHZ_CHECKS });
  } finally {
    await t.close();
  }
}
