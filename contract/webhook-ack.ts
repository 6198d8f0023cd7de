import { WEBHOOK_RESPONSE_DEADLINE_MS } from './constants.ts';
import type { Profile } from './profile.ts';

// What counts as a webhook acknowledgement (part 6): a success status, as the profile reads
// "2xx" (webhooks.successStatuses), answered within the 5 s deadline. An answer after the
// deadline is a failed attempt the sender must retry. One rule for the dispatcher (which
// sends), certify (which judges a receiver) and validate (which judges a sender).

type AckProfile = Pick<Profile, 'webhooks'>;

/** Whether an answer's status acknowledges a delivery; null (no answer) never does. */
export function isAckStatus(profile: AckProfile, status: number | null | undefined): boolean {
  if (status === null || status === undefined) return false;
  return profile.webhooks.successStatuses === '200' ? status === 200 : status >= 200 && status < 300;
}

/** Whether an attempt was acknowledged: a success status answered within the deadline. */
export function isAcknowledged(profile: AckProfile, answer: { status: number | null | undefined; ms: number | null | undefined }, deadlineMs = WEBHOOK_RESPONSE_DEADLINE_MS): boolean {
  return isAckStatus(profile, answer.status) && answer.ms !== null && answer.ms !== undefined && answer.ms <= deadlineMs;
}

/** The acknowledgement as it reads in "expected …": "a 2xx within 5000 ms". */
export function ackExpectation(profile: AckProfile, deadlineMs = WEBHOOK_RESPONSE_DEADLINE_MS): string {
  return `${profile.webhooks.successStatuses === '200' ? '200' : 'a 2xx'} within ${deadlineMs} ms`;
}
