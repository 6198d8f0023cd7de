import { defaultProfile } from '../../../contract/index.ts';
import type { FaultSetting } from '../../../sandbox/faults/index.ts';
import { serveWrapped } from '../../embedded.ts';
import { runChecks, type ConformanceResult } from '../../runner.ts';

// The delivery checks' proof, shared by proof.test.ts: the reference sandbox served over real
// HTTP with its controls off (a partner's sandbox), at real time, with one webhook-sender fault
// (sandbox/webhooks/faults/) at a time, and the check that must fail for each.

export const DELIVERY_CHECKS = ['hooks.every-delivery', 'hooks.partner-isolation', 'hooks.subscribed-types', 'hooks.matched-each-side', 'hooks.answer-window'];

/** Each delivery fault, the check that must fail, and what its message must name. */
export const CAUGHT_BY: Record<string, { check: string; names: RegExp }> = {
  'hook-cross-partner': { check: 'hooks.partner-isolation', names: /event \S+ \(position\.\w+\) about user \S+.*partner B/s },
  'hook-unsubscribed-types': { check: 'hooks.subscribed-types', names: /event \S+ \((position\.created|withdrawal\.completed)\)/ },
  'hook-matched-one-side': { check: 'hooks.matched-each-side', names: /borrow position \S+ of user \S+/ },
  'hook-sender-timeout': { check: 'hooks.answer-window', names: /hung up after [01]\.\d s/ },
  'hook-resigned-body': { check: 'hooks.every-delivery', names: /event \S+ \(position\.\w+\).*verification failed/s },
};

/** The retry faults: a delivery check does not wait a minute for a retry; at real time the retry
 *  watch catches them (chaos/retry-watch/run.test.ts), with a test clock hooks.retry-schedule does. */
export const RETRY_FAULTS = ['hook-new-id-per-retry', 'hook-early-retry', 'hook-no-retries'];

/** The subscription-route faults: no delivery shows them; the authorization matrix catches them (conformance/authz/testing/proof.test.ts). */
export const AUTHZ_FAULTS = ['webhook-list-ignores-partner', 'webhook-delete-unchecked'];

export async function runDeliveryChecks(faults: FaultSetting[] = [], only = DELIVERY_CHECKS): Promise<ConformanceResult> {
  const t = await serveWrapped((req, next) => next(req), { profile: defaultProfile, controls: false, faults });
  try {
    return await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile: defaultProfile, only });
  } finally {
    await t.close();
  }
}

/** hooks.retry-schedule against the sandbox with its controls on (a test clock), with the given faults. */
export async function runRetrySchedule(faults: FaultSetting[] = []): Promise<ConformanceResult> {
  const t = await serveWrapped((req, next) => next(req), { profile: defaultProfile, controls: true, faults });
  try {
    return await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile: defaultProfile, only: ['hooks.retry-schedule'], say: () => {} });
  } finally {
    await t.close();
  }
}
