import type { PartnerCheck } from '../types.ts';
import { duplicateOrder } from './duplicate-order.ts';
import { liveKey } from './live-key.ts';
import { malformedRequest } from './malformed-request.ts';
import { missingContentType } from './missing-content-type.ts';
import { polling } from './polling.ts';
import { rateLimitIgnored } from './rate-limit-ignored.ts';
import { webhookBadSignature } from './webhook-bad-signature.ts';
import { webhookRefused } from './webhook-refused.ts';
import { webhookSlow } from './webhook-slow.ts';

// The partner report's checks, by name: one small module per rule of the interface that a
// partner's code can break and the sandbox can see. `skip` names in the plugin's options turn
// one off (a test that means to send a malformed request, say).

export const PARTNER_CHECKS: Readonly<Record<string, PartnerCheck>> = Object.freeze(
  Object.fromEntries([rateLimitIgnored, duplicateOrder, webhookSlow, webhookRefused, webhookBadSignature, liveKey, missingContentType, polling, malformedRequest].map((c) => [c.name, c])),
);

export const partnerCheckNames = (): string[] => Object.keys(PARTNER_CHECKS);

/** The checks to run: all but `skip`; an unknown name is refused, so a typo does not quietly keep a check on. */
export function selectChecks(skip: readonly string[] = []): PartnerCheck[] {
  for (const n of skip) if (!(n in PARTNER_CHECKS)) throw new Error(`partner report: unknown check "${n}"; known: ${partnerCheckNames().join(', ')}`);
  return Object.values(PARTNER_CHECKS).filter((c) => !skip.includes(c.name));
}
